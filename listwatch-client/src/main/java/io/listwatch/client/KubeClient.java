package io.listwatch.client;

/**
 * The entry point: a connection to one API server. Create one per cluster and share it;
 * every {@link ResourceClient} it hands out uses its connections (over HTTP/2 all requests
 * and watches share one connection).
 *
 * <p>Implementations: the HTTP client ({@code KubeClient.create(config)}) and the fake for
 * tests ({@code io.listwatch.client.testing.FakeClient}, in listwatch-testing). Thread-safe.
 */
public interface KubeClient extends AutoCloseable {

  /**
   * The HTTP client for {@code config}: {@code java.net.http}, HTTP/2 where the server
   * offers it (one connection for all requests and watches), HTTP/1.1 otherwise.
   *
   * @throws IllegalArgumentException if the TLS settings cannot be used
   */
  static KubeClient create(Config config) {
    return io.listwatch.client.internal.HttpKubeClient.create(config);
  }

  /** The HTTP client for {@link Config#load()}: kubeconfig, else in-cluster. */
  static KubeClient create() {
    return create(Config.load());
  }

  /** A client for one resource, reading and writing objects with {@code codec}. */
  <T> ResourceClient<T> resource(ResourceType type, ObjectCodec<T> codec);

  /** A client for one resource, with {@link DynamicObject}s. */
  default ResourceClient<DynamicObject> dynamic(ResourceType type) {
    return resource(type, DynamicObject.CODEC);
  }

  /** Closes connections and ends open watches. Idempotent. */
  @Override
  void close();
}

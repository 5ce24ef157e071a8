package io.listwatch.client;

/**
 * The entry point: a connection to one API server. Create one per cluster and share it;
 * every {@link ResourceClient} it hands out uses its connections (over HTTP/2 all requests
 * and watches share one connection).
 *
 * <p>Implementations: the HTTP client ({@code KubeClient.create(config)}) and the fake for
 * tests ({@link io.listwatch.client.testing.FakeClient}). Thread-safe.
 */
public interface KubeClient extends AutoCloseable {

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

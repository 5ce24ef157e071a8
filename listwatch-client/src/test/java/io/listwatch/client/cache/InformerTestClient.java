package io.listwatch.client.cache;

import io.listwatch.api.ListOptions;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link KubeClient} for the factory tests: each resource is served by its own
 * {@link InformerTestListerWatcher}; only list and watch work, and only for
 * {@link InformerTestObject}. Records the namespace of every request. Thread-safe.
 */
final class InformerTestClient implements KubeClient {

  private final Map<ResourceType, InformerTestListerWatcher> servers = new ConcurrentHashMap<>();
  /** Every {@code resource(type, codec)} call's type. */
  final List<ResourceType> resourceCalls = new CopyOnWriteArrayList<>();
  /** Every request, as {@code "list pods in ns"} or {@code "watch nodes in "}. */
  final List<String> requests = new CopyOnWriteArrayList<>();

  /** The fake server of {@code type}. */
  InformerTestListerWatcher server(ResourceType type) {
    return servers.computeIfAbsent(type, t -> new InformerTestListerWatcher());
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> ResourceClient<T> resource(ResourceType type, ObjectCodec<T> codec) {
    if (codec.type() != InformerTestObject.class) {
      throw new IllegalArgumentException("the test client serves InformerTestObject only");
    }
    resourceCalls.add(type);
    return (ResourceClient<T>) new Resource(type, server(type));
  }

  @Override
  public void close() {}

  private final class Resource implements ResourceClient<InformerTestObject> {
    private final ResourceType type;
    private final InformerTestListerWatcher server;

    Resource(ResourceType type, InformerTestListerWatcher server) {
      this.type = type;
      this.server = server;
    }

    @Override public ResourceType type() { return type; }
    @Override public ObjectCodec<InformerTestObject> codec() { return InformerTestObject.CODEC; }

    @Override
    public ObjectList<InformerTestObject> list(String namespace, ListOptions options) {
      requests.add("list " + type + " in " + namespace);
      return server.list(options);
    }

    @Override
    public WatchStream<InformerTestObject> watch(String namespace, ListOptions options) {
      requests.add("watch " + type + " in " + namespace);
      return server.watch(options);
    }

    @Override public Optional<InformerTestObject> get(String namespace, String name) { throw no(); }
    @Override public InformerTestObject create(InformerTestObject object) { throw no(); }
    @Override public InformerTestObject update(InformerTestObject object) { throw no(); }
    @Override public InformerTestObject updateStatus(InformerTestObject object) { throw no(); }
    @Override public InformerTestObject patch(String ns, String name, io.listwatch.api.patch.PatchType type,
        String patch) {
      throw no();
    }
    @Override public boolean delete(String namespace, String name) { throw no(); }
    @Override
    public io.listwatch.client.DynamicObject createSubresource(String namespace, String name, String subresource,
        io.listwatch.client.DynamicObject body) {
      throw no();
    }
    @Override public boolean delete(String namespace, String name, io.listwatch.client.DeleteOptions options) {
      throw no();
    }

    private UnsupportedOperationException no() {
      return new UnsupportedOperationException("the test client only lists and watches");
    }
  }
}

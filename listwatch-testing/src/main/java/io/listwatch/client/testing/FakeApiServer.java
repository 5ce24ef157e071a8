package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.internal.RestResourceClient;
import io.listwatch.storage.memory.MemoryStorage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The API server behind {@link FakeClient}s: listwatch's own API core
 * ({@link GenericApiServer}: defaults, validation, resourceVersions, the watch cache, field
 * managers, every kind's strategy) in memory, on a {@link MemoryStorage} and a
 * {@link FakeClock}. Nothing listens on a socket. Several clients may share one.
 *
 * <p>Besides serving clients, it lets a test set the scene and play the cluster's part:
 * {@link #add seed objects} without recording actions, read what is stored, and make happen
 * what a real server does to its clients with time: {@link #compact()} (old resourceVersions
 * expire), {@link #sendBookmarks()}, {@link #closeAllWatches()} (connections drop). Time moves
 * only when the test {@linkplain #clock() advances the clock}: grace periods, bookmarks and
 * watch timeouts wait for it.
 *
 * <p>Thread-safe. {@link #close()} ends every watch and stops the core.
 */
public final class FakeApiServer implements AutoCloseable {

  private final FakeClock clock;
  private final CacherConfig cacherConfig;
  private final MemoryStorage storage;
  private final GenericApiServer core;
  /** Delivers every watch's events in order; one thread, as a connection's event loop. */
  private final ExecutorService watchExecutor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "listwatch-fake-watches");
    t.setDaemon(true);
    return t;
  });
  private final Set<CoreTransport> transports = ConcurrentHashMap.newKeySet();
  /** Reads and writes for the test itself, recorded nowhere. */
  private final CoreTransport direct;

  private FakeApiServer(FakeClock clock, CacherConfig cacherConfig) {
    this.clock = clock;
    this.cacherConfig = cacherConfig;
    this.storage = MemoryStorage.builder().clock(dating(clock)).open();
    this.core = GenericApiServer.builder(storage).clock(clock).cacherConfig(cacherConfig).build()
        .start(List.of());
    this.direct = new CoreTransport(this, () -> Config.DEFAULT_NAMESPACE);
  }

  /** {@code clock} as the {@link java.time.Clock} that dates the store's commits. */
  private static java.time.Clock dating(FakeClock clock) {
    return new java.time.Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return java.time.ZoneOffset.UTC;
      }

      @Override
      public java.time.Clock withZone(java.time.ZoneId zone) {
        return java.time.Clock.fixed(instant(), zone);
      }

      @Override
      public java.time.Instant instant() {
        return clock.now();
      }
    };
  }

  /** A server with kube's watch cache settings, its clock at a fixed instant. */
  public static FakeApiServer create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The clock every timer of the server runs on; advance it to let time pass. */
  public FakeClock clock() {
    return clock;
  }

  // ---- the scene ----------------------------------------------------------------------

  /**
   * Seeds an object that already exists (a fixture): it goes through the server's defaults,
   * admission and validation as a create does, and is in the watch cache on return, but keeps the {@code uid}, {@code creationTimestamp},
   * {@code generation} and {@code status} it has, so references to it hold; its
   * resourceVersion is new. A namespaced object without a namespace goes to
   * {@value Config#DEFAULT_NAMESPACE}, and a namespace it names that does not exist is created
   * first. Records no action.
   *
   * @return the object as stored
   * @throws StatusException as a create would (422 for an invalid object, 409 if it exists)
   */
  public ObjectNode add(ResourceType type, ObjectNode object) {
    ObjectNode tree = object.deepCopy();
    String namespace = "";
    if (type.namespaced()) {
      ObjectNode meta = tree.get("metadata") instanceof ObjectNode m ? m : tree.putObject("metadata");
      namespace = meta.path("namespace").asText("");
      if (namespace.isEmpty()) {
        namespace = Config.DEFAULT_NAMESPACE;
        meta.put("namespace", namespace);
      }
      ensureNamespace(namespace);
    }
    return settled(type, join(store(type).restoreInternal(namespace, tree)));
  }

  /** Seeds a typed object (see {@link #add(ResourceType, ObjectNode)}); returns it as stored. */
  public <T> T add(ResourceType type, ObjectCodec<T> codec, T object) {
    return decode(codec, add(type, encode(codec, object)));
  }

  /**
   * Creates each namespace that does not exist yet (objects can be created only in a namespace
   * that exists). Records no action. Returns this.
   */
  public FakeApiServer addNamespaces(String... names) {
    for (String name : names) {
      ensureNamespace(name);
    }
    return this;
  }

  private void ensureNamespace(String namespace) {
    ResourceStore namespaces = core.store("", "v1", "namespaces");
    if (join(namespaces.getInternal("", namespace)).isPresent()) {
      return;
    }
    ObjectNode ns = JsonNodeFactory.instance.objectNode();
    ns.put("apiVersion", "v1").put("kind", "Namespace").putObject("metadata").put("name", namespace);
    try {
      join(namespaces.createInternal("", ns));
    } catch (StatusException e) {
      if (e.code() != 409) { // created meanwhile by another seeder: fine
        throw e;
      }
    }
  }

  /** The object as stored now, if it exists. */
  public Optional<ObjectNode> get(ResourceType type, String namespace, String name) {
    return objects(type).get(namespace, name).map(DynamicObject::toTree);
  }

  /** Every object of {@code type} in {@code namespace} ("" for all), as a consistent list reads them. */
  public List<ObjectNode> list(ResourceType type, String namespace) {
    return objects(type).list(namespace, ListOptions.builder().build()).items().stream()
        .map(DynamicObject::toTree).toList();
  }

  /** Creates an object as a client would, without recording an action. */
  public ObjectNode create(ResourceType type, ObjectNode object) {
    return settled(type, objects(type).create(DynamicObject.of(object)).toTree());
  }

  /** Updates an object as a client would (a resourceVersion it carries must be current). */
  public ObjectNode update(ResourceType type, ObjectNode object) {
    return settled(type, objects(type).update(DynamicObject.of(object)).toTree());
  }

  /** Updates an object's status as a client would. */
  public ObjectNode updateStatus(ResourceType type, ObjectNode object) {
    return settled(type, objects(type).updateStatus(DynamicObject.of(object)).toTree());
  }

  /** Deletes an object as a client would; false if it did not exist. */
  public boolean delete(ResourceType type, String namespace, String name) {
    return settled(type, objects(type).delete(namespace, name));
  }

  /**
   * Returns {@code result} once the resource's watch cache holds every write so far: what a test
   * seeds or changes itself is then in every read and watch that starts afterwards, even one at
   * {@code resourceVersion=0} (which the cache answers from what it has, as kube's does).
   */
  private <V> V settled(ResourceType type, V result) {
    join(core.cacher(type.group(), type.plural()).list("", ListOptions.builder().limit(1).build()));
    return result;
  }

  /** The store's current resourceVersion: that of the last write. */
  public long resourceVersion() {
    return storage.currentRevision();
  }

  // ---- what time and networks do to clients ---------------------------------------------

  /**
   * Lets every resourceVersion before now expire, as a busy cluster does: time passes beyond
   * the watch cache's history ({@link CacherConfig#historyMaxAge()}), so a watch from before a
   * resource's latest change gets 410 Gone, and the store is compacted, so a list at an exact
   * older version or a continue token from before gets 410 too. Moves the clock.
   */
  public void compact() {
    awaitCachesCurrent(); // the history to expire includes the latest writes
    clock.advance(cacherConfig.historyMaxAge().plusSeconds(1));
    join(storage.compact(storage.currentRevision()));
  }

  /** Waits until every watch cache holds every write made so far (a consistent read of each). */
  private void awaitCachesCurrent() {
    ListOptions consistent = ListOptions.builder().limit(1).build();
    for (var cacher : core.cachers().values()) {
      join(cacher.list("", consistent));
    }
  }

  /**
   * Moves the clock by the bookmark interval, so every open watch that allows bookmarks gets
   * one (kube sends them about once a minute).
   */
  public void sendBookmarks() {
    clock.advance(cacherConfig.bookmarkInterval());
  }

  /**
   * Ends every client's open watches, as if their connections dropped: readers see their
   * streams end, and informers watch again from where they were.
   */
  public void closeAllWatches() {
    transports.forEach(CoreTransport::closeWatches);
  }

  /** How many watches of {@code type} are open on the server. */
  public int watchCount(ResourceType type) {
    return core.cacher(type.group(), type.plural()).watcherCount();
  }

  /**
   * Waits until at least {@code count} watches of {@code type} are open (an informer started
   * watching), at most {@code timeout}.
   *
   * @return whether they were
   */
  public boolean awaitWatches(ResourceType type, int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (watchCount(type) < count) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }

  /**
   * Lets the time a request waits for the cache to reach a future resourceVersion pass
   * ({@link CacherConfig#freshnessTimeout()}), so that it gets its answer (504) instead of
   * waiting for a clock only the test moves. Moves the clock.
   */
  void letWaitsElapse() {
    clock.advance(cacherConfig.freshnessTimeout());
  }

  /** Ends every watch and stops the core. Idempotent. */
  @Override
  public void close() {
    transports.forEach(CoreTransport::close);
    direct.close();
    core.close();
    watchExecutor.shutdownNow();
    storage.close();
  }

  // ---- for the clients ----------------------------------------------------------------

  GenericApiServer core() {
    return core;
  }

  java.util.concurrent.Executor watchExecutor() {
    return watchExecutor;
  }

  /** A new way in for one client, whose watches {@link #closeAllWatches()} reaches. */
  CoreTransport connect(java.util.function.Supplier<String> defaultNamespace) {
    CoreTransport transport = new CoreTransport(this, defaultNamespace);
    transports.add(transport);
    return transport;
  }

  void disconnect(CoreTransport transport) {
    transports.remove(transport);
  }

  private ResourceClient<DynamicObject> objects(ResourceType type) {
    return RestResourceClient.of(direct, type, DynamicObject.CODEC);
  }

  private ResourceStore store(ResourceType type) {
    return core.store(type.group(), type.version(), type.plural());
  }

  private static <V> V join(CompletableFuture<V> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof StatusException se) {
        throw se;
      }
      throw e;
    }
  }

  static <T> ObjectNode encode(ObjectCodec<T> codec, T object) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (com.fasterxml.jackson.core.JsonGenerator g = JSON.getFactory().createGenerator(out)) {
      codec.encode(object, g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return (ObjectNode) JSON.readTree(out.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static <T> T decode(ObjectCodec<T> codec, ObjectNode tree) {
    try (com.fasterxml.jackson.core.JsonParser p = JSON.getFactory().createParser(JSON.writeValueAsBytes(tree))) {
      p.nextToken();
      return codec.decode(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  /** Configures a {@link FakeApiServer}. Not thread-safe. */
  public static final class Builder {
    private FakeClock clock;
    private CacherConfig cacherConfig = CacherConfig.DEFAULTS;

    private Builder() {
    }

    /** The clock (default: a new FakeClock). */
    public Builder clock(FakeClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The watch cache's sizes and times (default: kube's). */
    public Builder cacherConfig(CacherConfig config) {
      this.cacherConfig = Objects.requireNonNull(config, "config");
      return this;
    }

    public FakeApiServer build() {
      return new FakeApiServer(clock == null ? new FakeClock() : clock, cacherConfig);
    }
  }
}

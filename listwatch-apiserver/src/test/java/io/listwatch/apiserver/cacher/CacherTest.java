package io.listwatch.apiserver.cacher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import io.listwatch.api.StatusException;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacherTest {

  private static final ResourceDefinition PODS = ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();
  private static final ResourceDefinition CONFIG_MAPS =
      ResourceRegistry.builtins().find("", "v1", "configmaps").orElseThrow();
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final CacherConfig CONFIG = new CacherConfig(1_000, Duration.ofMinutes(5), 100,
      Duration.ofMinutes(1), Duration.ofSeconds(3));

  @TempDir
  Path dir;

  private RocksDbStorage storage;
  /** The cachers' time: nothing timed happens unless a test advances it. */
  private final FakeClock clock = new FakeClock();
  private final List<Cacher> cachers = new ArrayList<>();
  private final List<java.util.concurrent.ExecutorService> loops = new ArrayList<>();
  private final List<CountDownLatch> blockedLoops = new ArrayList<>();

  @BeforeEach
  void open() {
    storage = RocksDbStorage.builder(dir).open();
  }

  @AfterEach
  void close() {
    blockedLoops.forEach(CountDownLatch::countDown);
    cachers.forEach(Cacher::close);
    storage.close();
    loops.forEach(java.util.concurrent.ExecutorService::shutdownNow);
  }

  // ---- helpers -------------------------------------------------------------------------

  private Cacher start(CacherConfig config) {
    Cacher c = new Cacher(PODS, storage, config, clock);
    cachers.add(c);
    c.start();
    return c;
  }

  private Cacher start() {
    return start(CONFIG);
  }

  /**
   * A writer hands the cache what it stored: the storage event then caches that very object
   * (decoded once, by the writer), labels included; an object handed over after its event is
   * not taken.
   */
  @Test
  void primedObject_isWhatTheEventCaches_andOneHandedOverLate_isNot() throws Exception {
    Cacher c = start();
    long next = storage.readCurrentRevision().join() + 1; // this test is the only writer
    ObjectNode stored = (ObjectNode) MAPPER.readTree(podJson("default", "primed", Map.of("app", "web")));
    CachedObject primed = c.prime(PODS.storageKey("default", "primed"), next, stored.deepCopy()).orElseThrow();
    KeyValue written = create("default", "primed", Map.of("app", "web"));
    assertThat(written.modRevision()).isEqualTo(next);

    ListOptions atWrite = options("resourceVersion", Long.toString(next), "resourceVersionMatch", "NotOlderThan");
    assertThat(await(c.get("default", "primed", atWrite))).get().isSameAs(primed);
    assertThat(names(await(c.list("", options("labelSelector", "app=web", "resourceVersion", Long.toString(next),
        "resourceVersionMatch", "NotOlderThan"))))).containsExactly("primed");

    KeyValue other = create("default", "late", Map.of());
    CachedObject late = c.prime(other.key(), other.modRevision(),
        (ObjectNode) MAPPER.readTree(podJson("default", "late", Map.of()))).orElseThrow();
    ListOptions atOther = options("resourceVersion", Long.toString(other.modRevision()),
        "resourceVersionMatch", "NotOlderThan");
    CachedObject cached = await(c.get("default", "late", atOther)).orElseThrow();
    assertThat(cached.resourceVersion()).isEqualTo(other.modRevision());
    update(other, Map.of("v", "2"));
    assertThat(await(c.get("default", "late", options("resourceVersion", Long.toString(other.modRevision() + 1),
        "resourceVersionMatch", "NotOlderThan"))).orElseThrow()).as("the next event decodes its own bytes")
        .isNotSameAs(late).extracting(CachedObject::labels).isEqualTo(Map.of("v", "2"));
  }

  @Test
  void consistentList_whenTheStoreCannotSayItsRevision_failsWith503() {
    Storage unreachable = (Storage) java.lang.reflect.Proxy.newProxyInstance(Storage.class.getClassLoader(),
        new Class<?>[] {Storage.class}, (proxy, method, args) -> {
          if (method.getName().equals("readCurrentRevision")) {
            return CompletableFuture.failedFuture(StorageException.unavailable("etcd did not answer", null));
          }
          try {
            return method.invoke(storage, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
    Cacher c = new Cacher(PODS, unreachable, CONFIG, clock);
    cachers.add(c);
    c.start();

    assertThatThrownBy(() -> c.list("", options()).join()).cause()
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(503);
          assertThat(e.getMessage()).contains("etcd did not answer");
        });
    assertThat(c.list("", options("resourceVersion", "0")).join().items()).as("a read from the cache still works")
        .isEmpty();
  }

  private static byte[] podJson(String namespace, String name, Map<String, String> labels) {
    ObjectNode tree = MAPPER.createObjectNode();
    tree.put("apiVersion", "v1");
    tree.put("kind", "Pod");
    ObjectNode meta = tree.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    ObjectNode l = meta.putObject("labels");
    labels.forEach(l::put);
    tree.putObject("spec").put("nodeName", "node-" + name);
    try {
      return MAPPER.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private KeyValue create(String namespace, String name, Map<String, String> labels) {
    return storage.create(PODS.storageKey(namespace, name), podJson(namespace, name, labels)).join();
  }

  private KeyValue create(String name) {
    return create("default", name, Map.of());
  }

  private KeyValue update(KeyValue current, Map<String, String> labels) {
    String[] parts = current.key().substring(PODS.storagePrefix().length()).split("/");
    return storage.update(current.key(), podJson(parts[0], parts[1], labels), current.modRevision()).join();
  }

  /** Deletes and returns the deletion's revision. */
  private long delete(KeyValue current) {
    storage.delete(current.key(), current.modRevision()).join();
    return storage.currentRevision();
  }

  private static ListOptions options(String... keyValues) {
    Map<String, List<String>> q = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      q.put(keyValues[i], List.of(keyValues[i + 1]));
    }
    return ListOptions.parse(q);
  }

  private static <T> T await(CompletableFuture<T> f) {
    try {
      return f.get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new CompletionException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("no answer within 5 s", e);
    }
  }

  /** Waits until the cache has applied everything up to {@code rv} (a list at NotOlderThan rv). */
  private static void awaitCacheAt(Cacher c, long rv) {
    await(c.list("", options("resourceVersion", Long.toString(rv))));
  }

  /** One thread running tasks in order, as a connection's event loop. */
  private java.util.concurrent.ExecutorService newLoop(String name) {
    java.util.concurrent.ExecutorService loop =
        java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "CacherTest-" + name));
    loops.add(loop);
    return loop;
  }

  /** Starts a watch and, as the transport does once it has the watcher, drains it. */
  private CacheWatcher watch(Cacher c, String namespace, ListOptions options, FakeWatchSink sink) {
    CacheWatcher w = await(c.watch(namespace, options, sink, clock.nanoTime() + TimeUnit.MINUTES.toNanos(10)));
    sink.executor().execute(w::drain);
    return w;
  }

  private static List<String> names(Cacher.ListResult r) {
    return r.items().stream().map(CachedObject::name).toList();
  }

  private static JsonNode tree(CachedObject o) {
    try {
      return MAPPER.readTree(o.json());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> typesNamesRvs(List<FakeWatchSink.Line> lines) {
    return lines.stream().map(l -> l.type() + " " + l.name() + " " + l.resourceVersion()).toList();
  }

  private static void assertStatus(Throwable e, int code) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    assertThat(cause).isInstanceOfSatisfying(StatusException.class, s -> assertThat(s.code()).isEqualTo(code));
  }

  // ---- fill and follow -------------------------------------------------------------------

  @Test
  void start_fillsFromTheObjectsAlreadyInStorage_stampingTheirResourceVersions() {
    KeyValue a = create("ns1", "a", Map.of("app", "web"));
    KeyValue b = create("ns2", "b", Map.of());
    storage.create(CONFIG_MAPS.storageKey("ns1", "other"), "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8))
        .join();

    Cacher c = start();

    assertThat(c.resourceVersion()).isEqualTo(storage.currentRevision());
    Cacher.ListResult all = await(c.list("", options("resourceVersion", "0")));
    assertThat(names(all)).containsExactly("a", "b");
    assertThat(all.resourceVersion()).isEqualTo(storage.currentRevision());
    CachedObject cachedA = all.items().getFirst();
    assertThat(cachedA.resourceVersion()).isEqualTo(a.modRevision());
    assertThat(tree(cachedA).at("/metadata/resourceVersion").asText()).isEqualTo(Long.toString(a.modRevision()));
    assertThat(cachedA.labels()).containsEntry("app", "web");
    assertThat(cachedA.fields()).containsEntry("spec.nodeName", "node-a").containsEntry("metadata.namespace", "ns1");
    assertThat(tree(all.items().get(1)).at("/metadata/resourceVersion").asText())
        .isEqualTo(Long.toString(b.modRevision()));
  }

  @Test
  void start_onAnEmptyStore_servesAnEmptyList() {
    Cacher c = start();

    Cacher.ListResult r = await(c.list("", options()));

    assertThat(r.items()).isEmpty();
    assertThat(r.continueToken()).isNull();
  }

  @Test
  void cache_followsCreatesUpdatesAndDeletes() {
    Cacher c = start();

    KeyValue a1 = create("a");
    awaitCacheAt(c, a1.modRevision());
    Optional<CachedObject> got = await(c.get("default", "a", options("resourceVersion", "0")));
    assertThat(got).hasValueSatisfying(o -> assertThat(o.resourceVersion()).isEqualTo(a1.modRevision()));

    KeyValue a2 = update(a1, Map.of("v", "2"));
    awaitCacheAt(c, a2.modRevision());
    got = await(c.get("default", "a", options("resourceVersion", "0")));
    assertThat(got).hasValueSatisfying(o -> {
      assertThat(o.resourceVersion()).isEqualTo(a2.modRevision());
      assertThat(o.labels()).containsEntry("v", "2");
      assertThat(tree(o).at("/metadata/resourceVersion").asText()).isEqualTo(Long.toString(a2.modRevision()));
    });

    long deletedAt = delete(a2);
    awaitCacheAt(c, deletedAt);
    assertThat(await(c.get("default", "a", options("resourceVersion", "0")))).isEmpty();
    assertThat(c.resourceVersion()).isEqualTo(deletedAt);
  }

  @Test
  void cache_ignoresKeysOfOtherResources() {
    Cacher c = start();

    storage.create(CONFIG_MAPS.storageKey("default", "x"), "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8))
        .join();
    KeyValue a = create("a");
    awaitCacheAt(c, a.modRevision());

    assertThat(names(await(c.list("", options("resourceVersion", "0"))))).containsExactly("a");
  }

  // ---- list ------------------------------------------------------------------------------

  @Test
  void list_consistentRead_seesAWriteCommittedJustBefore() {
    Cacher c = start();

    for (int i = 0; i < 20; i++) {
      KeyValue kv = create("p" + i);
      Cacher.ListResult r = await(c.list("", options()));
      assertThat(r.resourceVersion()).isGreaterThanOrEqualTo(kv.modRevision());
      assertThat(r.items()).hasSize(i + 1);
    }
  }

  @Test
  void list_consistentRead_ofAQuietResource_catchesUpThroughAProgressNotification() {
    Cacher c = start(new CacherConfig(1_000, Duration.ofMinutes(5), 100, Duration.ofMinutes(1),
        Duration.ofSeconds(2)));
    create("a");
    // Writes to another resource move storage's revision but never reach this cache's watch.
    for (int i = 0; i < 3; i++) {
      storage.create(CONFIG_MAPS.storageKey("default", "cm" + i), "{}".getBytes(StandardCharsets.UTF_8)).join();
    }

    Cacher.ListResult r = await(c.list("", options()));

    assertThat(r.resourceVersion()).isEqualTo(storage.currentRevision());
    assertThat(names(r)).containsExactly("a");
  }

  @Test
  void list_atAResourceVersionTheCacheDoesNotReach_failsWith504_whenTheFreshnessTimeoutPasses() {
    Cacher c = start(new CacherConfig(1_000, Duration.ofMinutes(5), 100, Duration.ofMinutes(1),
        Duration.ofMillis(200)));
    create("a");

    CompletableFuture<Cacher.ListResult> f = c.list("", options("resourceVersion", "1000"));
    clock.advance(Duration.ofMillis(199));
    assertThat(f).as("still waiting within the timeout").isNotDone();
    clock.advance(Duration.ofMillis(1));

    assertThatThrownBy(() -> await(f)).satisfies(e -> assertStatus(e, 504));
  }

  @Test
  void list_filtersByNamespaceAndSelectors() {
    create("ns1", "a", Map.of("app", "web"));
    create("ns1", "b", Map.of("app", "db"));
    create("ns10", "c", Map.of("app", "web"));
    create("ns2", "d", Map.of("app", "web"));
    Cacher c = start();

    assertThat(names(await(c.list("ns1", options())))).as("ns1 is not a prefix of ns10").containsExactly("a", "b");
    assertThat(names(await(c.list("", options("labelSelector", "app=web"))))).containsExactly("a", "c", "d");
    assertThat(names(await(c.list("ns1", options("labelSelector", "app=web"))))).containsExactly("a");
    assertThat(names(await(c.list("", options("fieldSelector", "spec.nodeName=node-d"))))).containsExactly("d");
  }

  @Test
  void list_withLimit_pagesThroughOneSnapshot_withContinueTokens() {
    for (String n : List.of("a", "b", "c", "d", "e")) {
      create(n);
    }
    Cacher c = start();
    long rv = storage.currentRevision();

    Cacher.ListResult p1 = await(c.list("", options("limit", "2")));
    assertThat(names(p1)).containsExactly("a", "b");
    assertThat(p1.resourceVersion()).isEqualTo(rv);
    assertThat(p1.remainingItemCount()).isEqualTo(3L);
    assertThat(p1.continueToken()).isNotNull();

    Cacher.ListResult p2 = await(c.list("", options("limit", "2", "continue", p1.continueToken())));
    assertThat(names(p2)).containsExactly("c", "d");
    assertThat(p2.resourceVersion()).isEqualTo(rv);
    assertThat(p2.continueToken()).isNotNull();

    Cacher.ListResult p3 = await(c.list("", options("limit", "2", "continue", p2.continueToken())));
    assertThat(names(p3)).containsExactly("e");
    assertThat(p3.resourceVersion()).isEqualTo(rv);
    assertThat(p3.continueToken()).isNull();
  }

  @Test
  void list_continuedAfterLaterWrites_stillServesTheFirstPagesSnapshot() {
    create("a");
    create("b");
    KeyValue c1 = create("c");
    create("d");
    Cacher c = start();
    long rv = storage.currentRevision();
    Cacher.ListResult p1 = await(c.list("", options("limit", "2")));

    KeyValue bb = create("bb");
    KeyValue c2 = update(c1, Map.of("v", "2"));
    delete(storage.get(PODS.storageKey("default", "d")).join().orElseThrow());
    awaitCacheAt(c, storage.currentRevision());

    Cacher.ListResult p2 = await(c.list("", options("limit", "5", "continue", p1.continueToken())));
    assertThat(names(p2)).containsExactly("c", "d");
    assertThat(p2.resourceVersion()).isEqualTo(rv);
    assertThat(p2.items().getFirst().resourceVersion()).isEqualTo(c1.modRevision());
    assertThat(tree(p2.items().getFirst()).at("/metadata/resourceVersion").asText())
        .isEqualTo(Long.toString(c1.modRevision()));
    assertThat(p2.continueToken()).isNull();
    assertThat(bb.modRevision()).isLessThan(c2.modRevision());
  }

  @Test
  void list_withLimitAndASelector_pagesOverTheMatchingObjectsOnly() {
    create("default", "a", Map.of("app", "web"));
    create("default", "b", Map.of("app", "db"));
    create("default", "c", Map.of("app", "web"));
    create("default", "d", Map.of("app", "web"));
    Cacher c = start();

    Cacher.ListResult p1 = await(c.list("", options("limit", "2", "labelSelector", "app=web")));
    assertThat(names(p1)).containsExactly("a", "c");
    assertThat(p1.remainingItemCount()).as("kube omits it for a selective list").isNull();

    Cacher.ListResult p2 = await(c.list("", options("limit", "2", "labelSelector", "app=web",
        "continue", p1.continueToken())));
    assertThat(names(p2)).containsExactly("d");
    assertThat(p2.continueToken()).isNull();
  }

  // ---- get -------------------------------------------------------------------------------

  @Test
  void get_returnsTheCachedObject_orEmpty() {
    KeyValue a = create("ns1", "a", Map.of());
    Cacher c = start();

    assertThat(await(c.get("ns1", "a", options()))).hasValueSatisfying(o -> {
      assertThat(o.resourceVersion()).isEqualTo(a.modRevision());
      assertThat(o.key()).isEqualTo(a.key());
    });
    assertThat(await(c.get("ns1", "missing", options()))).isEmpty();
    assertThat(await(c.get("ns2", "a", options("resourceVersion", "0")))).isEmpty();
  }

  @Test
  void get_consistentRead_seesAWriteCommittedJustBefore() {
    Cacher c = start();

    KeyValue a = create("a");
    KeyValue a2 = update(a, Map.of("v", "2"));

    assertThat(await(c.get("default", "a", options())))
        .hasValueSatisfying(o -> assertThat(o.resourceVersion()).isEqualTo(a2.modRevision()));
  }

  // ---- watch -----------------------------------------------------------------------------

  @Test
  void watch_fromResourceVersionUnset_sendsTheStateAsAdded_thenEveryChangeInOrder() {
    KeyValue a = create("a");
    KeyValue b = create("b");
    Cacher c = start();
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    watch(c, "", options("watch", "true"), sink);

    KeyValue a2 = update(a, Map.of("v", "2"));
    long bDeleted = delete(b);
    KeyValue cc = create("c");

    assertThat(typesNamesRvs(sink.awaitEvents(5))).containsExactly(
        "ADDED a " + a.modRevision(),
        "ADDED b " + b.modRevision(),
        "MODIFIED a " + a2.modRevision(),
        "DELETED b " + bDeleted,
        "ADDED c " + cc.modRevision());
    assertThat(sink.events().get(2).object().at("/metadata/labels/v").asText()).isEqualTo("2");
  }

  @Test
  void watch_startedWhileTheDispatchLockIsBusy_doesNotHoldUpTheCaller_andMissesNothing() throws Exception {
    Cacher c = start();
    KeyValue a = create("a");
    awaitCacheAt(c, a.modRevision());
    // a listener that blocks while it is told of an event holds the dispatch lock meanwhile
    CountDownLatch inDispatch = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    blockedLoops.add(release);
    c.addListener(CacheListener.ofChanges(e -> {
      inDispatch.countDown();
      try {
        release.await();
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }));
    KeyValue b = create("b");
    assertThat(inDispatch.await(10, TimeUnit.SECONDS)).isTrue();

    // the caller (an event loop, in the server) gets its future back at once
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    java.util.concurrent.CompletableFuture<CacheWatcher> started = java.util.concurrent.CompletableFuture
        .supplyAsync(() -> c.watch("", options("watch", "true"), sink, clock.nanoTime() + TimeUnit.MINUTES.toNanos(10)))
        .get(10, TimeUnit.SECONDS); // the call returns; it used to wait for the lock
    assertThat(started).isNotDone();

    release.countDown();
    CacheWatcher w = await(started);
    sink.executor().execute(w::drain);
    KeyValue cc = create("c");
    assertThat(typesNamesRvs(sink.awaitEvents(3))).containsExactly(
        "ADDED a " + a.modRevision(),
        "ADDED b " + b.modRevision(),
        "ADDED c " + cc.modRevision());
  }

  @Test
  void watch_fromAResourceVersion_replaysTheChangesAfterIt_thenLiveChanges() {
    Cacher c = start();
    KeyValue a = create("a");
    KeyValue b = create("b");
    KeyValue a2 = update(a, Map.of("v", "2"));
    awaitCacheAt(c, a2.modRevision());

    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    watch(c, "", options("watch", "true", "resourceVersion", Long.toString(a.modRevision())), sink);
    KeyValue cc = create("c");

    assertThat(typesNamesRvs(sink.awaitEvents(3))).containsExactly(
        "ADDED b " + b.modRevision(),
        "MODIFIED a " + a2.modRevision(),
        "ADDED c " + cc.modRevision());
  }

  @Test
  void watch_withSendInitialEvents_endsTheInitialEventsWithAnAnnotatedBookmark() {
    KeyValue a = create("a");
    Cacher c = start();
    long listRv = storage.currentRevision();
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    watch(c, "", options("watch", "true", "sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan",
        "allowWatchBookmarks", "true"), sink);
    KeyValue b = create("b");

    List<FakeWatchSink.Line> lines = sink.awaitEvents(3);
    assertThat(typesNamesRvs(lines)).containsExactly(
        "ADDED a " + a.modRevision(),
        "BOOKMARK  " + listRv,
        "ADDED b " + b.modRevision());
    assertThat(lines.get(1).object().at("/metadata/annotations/k8s.io~1initial-events-end").asText())
        .isEqualTo("true");
  }

  @Test
  void watch_withALabelSelector_seesObjectsEnterAndLeaveTheSelection() {
    Cacher c = start();
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    watch(c, "", options("watch", "true", "labelSelector", "app=web"), sink);

    KeyValue a = create("default", "a", Map.of("app", "db"));
    KeyValue a2 = update(a, Map.of("app", "web"));
    KeyValue a3 = update(a2, Map.of("app", "web", "v", "3"));
    KeyValue a4 = update(a3, Map.of("app", "db"));
    KeyValue marker = create("default", "marker", Map.of("app", "web"));

    List<FakeWatchSink.Line> lines = sink.awaitEvents(4);
    assertThat(typesNamesRvs(lines)).containsExactly(
        "ADDED a " + a2.modRevision(),
        "MODIFIED a " + a3.modRevision(),
        "DELETED a " + a4.modRevision(),
        "ADDED marker " + marker.modRevision());
    // leaving the selection: the last state that matched, at the change's resourceVersion (as kube)
    assertThat(lines.get(2).object().path("metadata").path("labels").path("app").asText()).isEqualTo("web");
  }

  @Test
  void watch_inANamespace_seesOnlyThatNamespace() {
    Cacher c = start();
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    watch(c, "ns1", options("watch", "true"), sink);

    create("ns10", "x", Map.of());
    create("ns2", "y", Map.of());
    KeyValue a = create("ns1", "a", Map.of());

    assertThat(typesNamesRvs(sink.awaitEvents(1))).containsExactly("ADDED a " + a.modRevision());
  }

  @Test
  void watch_fromAResourceVersionOlderThanTheCache_failsWith410() {
    KeyValue a = create("a");
    create("b");
    Cacher c = start(); // the history starts at b: a watch from before it cannot be served
    FakeWatchSink sink = new FakeWatchSink(new ManualEventExecutor());

    CompletableFuture<CacheWatcher> f = c.watch("", options("watch", "true", "resourceVersion",
        Long.toString(a.modRevision())), sink, Long.MAX_VALUE);

    assertThatThrownBy(() -> await(f)).satisfies(e -> assertStatus(e, 410));
    assertThat(c.watcherCount()).isZero();
  }

  @Test
  void watch_fromAResourceVersionEvictedFromTheHistory_failsWith410() {
    Cacher c = start(new CacherConfig(2, Duration.ofMinutes(5), 100, Duration.ofMinutes(1), Duration.ofSeconds(3)));
    KeyValue first = create("a");
    KeyValue second = create("b");
    create("c");
    KeyValue last = create("d");
    awaitCacheAt(c, last.modRevision());
    FakeWatchSink sink = new FakeWatchSink(new ManualEventExecutor());

    assertThatThrownBy(() -> await(c.watch("", options("watch", "true", "resourceVersion",
        Long.toString(first.modRevision())), sink, Long.MAX_VALUE))).satisfies(e -> assertStatus(e, 410));
    assertThat(await(c.watch("", options("watch", "true", "resourceVersion",
        Long.toString(second.modRevision())), sink, Long.MAX_VALUE))).isNotNull();
  }

  @Test
  void watch_replaysAHistoryLongerThanTheWatcherQueue_inFull_thenLiveEvents() {
    create("first");
    Cacher c = start(new CacherConfig(1_000, Duration.ofMinutes(5), 2, Duration.ofMinutes(1), Duration.ofSeconds(3)));
    long from = c.resourceVersion();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      expected.add("ADDED p" + i + " " + create("p" + i).modRevision());
    }
    awaitCacheAt(c, storage.currentRevision());
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));

    watch(c, "", options("watch", "true", "resourceVersion", Long.toString(from)), sink);
    expected.add("ADDED live " + create("live").modRevision());

    assertThat(typesNamesRvs(sink.awaitEvents(6))).containsExactlyElementsOf(expected);
    assertThat(c.terminatedWatchers()).isZero();
  }

  @Test
  void dispatch_terminatesAWatcherWhoseSinkIsNotWritable_whileAnotherReceivesEverything() {
    Cacher c = start(new CacherConfig(1_000, Duration.ofMinutes(5), 4, Duration.ofMinutes(1), Duration.ofSeconds(3)));
    String from = Long.toString(c.resourceVersion());
    FakeWatchSink slow = new FakeWatchSink(newLoop("slow"));
    slow.setWritable(false);
    watch(c, "", options("watch", "true", "resourceVersion", from), slow);
    FakeWatchSink fast = new FakeWatchSink(newLoop("fast"));
    watch(c, "", options("watch", "true", "resourceVersion", from), fast);
    assertThat(c.watcherCount()).isEqualTo(2);

    // One write at a time, each seen by the fast watcher before the next: its queue never
    // holds more than one frame, while the slow one's fills up (capacity 4) at the fifth.
    List<Long> written = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      written.add(create("p" + i).modRevision());
      fast.awaitEvents(i);
    }

    assertThat(fast.events()).extracting(FakeWatchSink.Line::resourceVersion).containsExactlyElementsOf(written);
    assertThat(c.watcherCount()).as("the slow watcher is dropped").isEqualTo(1);
    assertThat(c.terminatedWatchers()).isEqualTo(1);
    slow.awaitAborted();
    assertThat(slow.writes()).isEmpty();
    assertThat(slow.ended()).isFalse();
    assertThat(fast.aborted()).isFalse();
  }

  @Test
  void dispatch_neverWaitsForAWatchersEventLoop() {
    Cacher c = start(new CacherConfig(1_000, Duration.ofMinutes(5), 4, Duration.ofMinutes(1), Duration.ofSeconds(3)));
    String from = Long.toString(c.resourceVersion());
    java.util.concurrent.ExecutorService stuckLoop = newLoop("stuck");
    CountDownLatch unblock = new CountDownLatch(1);
    blockedLoops.add(unblock);
    stuckLoop.execute(() -> {
      try {
        unblock.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    FakeWatchSink stuck = new FakeWatchSink(stuckLoop);
    await(c.watch("", options("watch", "true", "resourceVersion", from), stuck, Long.MAX_VALUE));
    FakeWatchSink fast = new FakeWatchSink(newLoop("fast"));
    watch(c, "", options("watch", "true", "resourceVersion", from), fast);

    for (int i = 1; i <= 8; i++) {
      create("p" + i);
      fast.awaitEvents(i);
    }

    assertThat(c.watcherCount()).isEqualTo(1);
    assertThat(c.terminatedWatchers()).isEqualTo(1);
    assertThat(stuck.aborted()).as("its event loop is still blocked").isFalse();
    unblock.countDown();
    stuck.awaitAborted();
    assertThat(stuck.writes()).isEmpty();
  }

  @Test
  void watch_whenTheClientGoesAway_theWatcherIsRemoved_withoutCountingAsTerminated() {
    Cacher c = start();
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    CacheWatcher w = watch(c, "", options("watch", "true"), sink);

    w.onSinkClosed();
    KeyValue a = create("a");
    awaitCacheAt(c, a.modRevision());

    assertThat(c.watcherCount()).isZero();
    assertThat(c.terminatedWatchers()).isZero();
  }

  @Test
  void close_endsEveryWatchNormally() {
    Cacher c = start();
    FakeWatchSink sink = new FakeWatchSink(newLoop("watch"));
    watch(c, "", options("watch", "true"), sink);
    KeyValue a = create("a");
    sink.awaitEvents(1);

    c.close();

    sink.awaitEnded();
    assertThat(sink.aborted()).isFalse();
    assertThat(typesNamesRvs(sink.events())).containsExactly("ADDED a " + a.modRevision());
    assertThatThrownBy(() -> await(c.watch("", options("watch", "true"), new FakeWatchSink(new ManualEventExecutor()),
        Long.MAX_VALUE))).satisfies(e -> assertStatus(e, 503));
  }
}

package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Watches end to end against the in-process server. */
@ExtendWith(ApiServerExtension.class)
@Timeout(60)
class WatchTest {

  private KubeClient client;
  private ResourceClient<DynamicObject> configMaps;

  @BeforeEach
  void connect(ApiServer server) {
    client = KubeClient.create(Config.forUrl(server.url()));
    configMaps = client.dynamic(ResourceType.CONFIGMAPS);
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  private static String namespace(KubeClient client, String name) {
    client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}"));
    return name;
  }

  private static DynamicObject configMap(String ns, String name) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"" + ns + "\"}}");
  }

  private static ListOptions from(String resourceVersion) {
    return ListOptions.builder().resourceVersion(resourceVersion).build();
  }

  private static String describe(WatchEvent<DynamicObject> e) {
    return e.type() + " " + e.object().name();
  }

  @Test
  void watch_receivesAddedModifiedDeleted_inOrder_withTheirResourceVersions() throws Exception {
    String ns = namespace(client, "watch-order");
    String start = configMaps.list(ns, ListOptions.builder().build()).resourceVersion();
    try (WatchStream<DynamicObject> w = configMaps.watch(ns, from(start))) {
      DynamicObject created = configMaps.create(configMap(ns, "a"));
      DynamicObject patched = configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"v\"}}");
      configMaps.delete(ns, "a");

      List<WatchEvent<DynamicObject>> events = List.of(w.next().orElseThrow(), w.next().orElseThrow(), w.next().orElseThrow());
      assertThat(events).extracting(WatchTest::describe).containsExactly("ADDED a", "MODIFIED a", "DELETED a");
      assertThat(events.get(0).object().resourceVersion()).isEqualTo(created.resourceVersion());
      assertThat(events.get(1).object().resourceVersion()).isEqualTo(patched.resourceVersion());
      assertThat(events.get(1).object().get("data", "k").orElseThrow().asText()).isEqualTo("v");
    }
  }

  @Test
  void watch_withBookmarks_getsABookmarkBeforeTheTimeout_thenEndsCleanly() throws Exception {
    String ns = namespace(client, "watch-bookmarks");
    String start = configMaps.list(ns, ListOptions.builder().build()).resourceVersion();
    ListOptions options = from(start).toBuilder().allowWatchBookmarks(true).timeoutSeconds(3L).build();
    try (WatchStream<DynamicObject> w = configMaps.watch(ns, options)) {
      List<WatchEvent<DynamicObject>> events = new ArrayList<>();
      for (Optional<WatchEvent<DynamicObject>> e = w.next(); e.isPresent(); e = w.next()) {
        events.add(e.get());
      }
      assertThat(events).isNotEmpty().allSatisfy(e -> {
        assertThat(e.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
        assertThat(e.object().kind()).isEqualTo("ConfigMap");
        assertThat(Long.parseLong(e.object().resourceVersion())).isGreaterThanOrEqualTo(Long.parseLong(start));
        assertThat(e.object().name()).isEmpty();
      });
      assertThat(w.next()).as("ended streams stay ended").isEmpty();
    }
  }

  @Test
  void watch_fromAResourceVersionOlderThanTheHistory_yieldsAn410ErrorEvent() throws Exception {
    CacherConfig tinyHistory = new CacherConfig(10, Duration.ofMinutes(5), 1_024, Duration.ofMinutes(1), Duration.ofSeconds(3));
    try (ApiServer small = ApiServer.builder().cacherConfig(tinyHistory).build().start();
        KubeClient c = KubeClient.create(Config.forUrl(small.url()))) {
      ResourceClient<DynamicObject> cms = c.dynamic(ResourceType.CONFIGMAPS);
      String ns = namespace(c, "too-old");
      String start = cms.list(ns, ListOptions.builder().build()).resourceVersion();
      for (int i = 0; i < 15; i++) {
        cms.create(configMap(ns, "cm-" + i));
      }
      cms.list(ns, ListOptions.builder().build()); // the cache has seen all 15
      try (WatchStream<DynamicObject> w = cms.watch(ns, from(start))) {
        WatchEvent<DynamicObject> e = w.next().orElseThrow();
        assertThat(e.type()).isEqualTo(WatchEvent.Type.ERROR);
        assertThat(e.status().code()).isEqualTo(410);
        assertThat(e.status().reason()).isEqualTo("Expired");
        assertThat(w.next()).as("the stream ends after the ERROR").isEmpty();
      }
    }
  }

  @Test
  void watch_rejectedByTheServer_throwsItsStatus() {
    ResourceType unknown = new ResourceType("example.com", "v1", "widgets", "Widget", true);
    StatusException e = catchThrowableOfType(StatusException.class,
        () -> client.dynamic(unknown).watch("default", ListOptions.builder().build()));
    assertThat(e.code()).isEqualTo(404);
    assertThat(e.reason()).isEqualTo("NotFound");
  }

  @Test
  void close_fromAnotherThread_unblocksABlockedNext() throws Exception {
    String ns = namespace(client, "watch-close");
    String start = configMaps.list(ns, ListOptions.builder().build()).resourceVersion();
    WatchStream<DynamicObject> w = configMaps.watch(ns, from(start));
    Thread[] reader = new Thread[1];
    CompletableFuture<Optional<WatchEvent<DynamicObject>>> result = new CompletableFuture<>();
    reader[0] = Thread.ofVirtual().name("watch-reader").start(() -> {
      try {
        result.complete(w.next());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    awaitBlocked(reader[0]);
    assertThat(result).as("nothing happens in the namespace, so next() blocks").isNotDone();

    w.close();
    assertThat(result.get(10, TimeUnit.SECONDS)).isEmpty();
    w.close(); // idempotent
    assertThat(w.next()).isEmpty();
  }

  @Test
  void closingTheClient_endsItsOpenWatches() throws Exception {
    String ns = namespace(client, "client-close");
    String start = configMaps.list(ns, ListOptions.builder().build()).resourceVersion();
    WatchStream<DynamicObject> w = configMaps.watch(ns, from(start));
    CompletableFuture<Optional<WatchEvent<DynamicObject>>> result = new CompletableFuture<>();
    Thread reader = Thread.ofVirtual().name("watch-reader").start(() -> {
      try {
        result.complete(w.next());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    awaitBlocked(reader);
    client.close();
    assertThat(result.get(10, TimeUnit.SECONDS)).isEmpty();
  }

  /** Waits (bounded) until {@code t} parks: it is inside next(), waiting for data. */
  private static void awaitBlocked(Thread t) {
    Await.until("the reader blocks", Duration.ofSeconds(10), t::getState,
        state -> state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING);
  }
}

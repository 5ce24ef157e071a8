package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.describe;
import static io.listwatch.server.http.KubeHttp.name;
import static io.listwatch.server.http.KubeHttp.obj;
import static io.listwatch.server.http.KubeHttp.q;
import static io.listwatch.server.http.KubeHttp.rv;
import static io.listwatch.server.http.KubeHttp.type;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * WATCH over HTTP/1.1 as kube clients read it (docs/compatibility.md, "Watches", "Transport"): starting points,
 * the in-stream 410, timeouts, bookmarks, streaming lists, selector transitions, framing,
 * and resourceVersion order.
 */
@ExtendWith(ApiServerExtension.class)
class WatchSemanticsTest {

  private static ApiServer server;
  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer s) {
    server = s;
    http = new KubeHttp(s);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static ObjectNode labelsPatch(String key, String value) {
    ObjectNode patch = KubeHttp.JSON.createObjectNode();
    patch.putObject("metadata").putObject("labels").put(key, value);
    return patch;
  }

  // ---- starting points -----------------------------------------------------------------

  @Test
  void watch_fromUnsetResourceVersion_sendsAddedForEachExistingObjectThenLiveChanges() {
    assertInitialAddedThenLiveChanges("");
  }

  @Test
  void watch_fromResourceVersionZero_sendsAddedForEachExistingObjectThenLiveChanges() {
    assertInitialAddedThenLiveChanges("?resourceVersion=0");
  }

  private static void assertInitialAddedThenLiveChanges(String query) {
    String ns = http.createNamespace("initial");
    for (String n : List.of("a", "b", "c")) {
      http.create(cms(ns), configMap(n));
    }
    try (WatchStream w = http.watch(cms(ns) + query)) {
      List<JsonNode> initial = w.next(3);
      assertThat(initial).extracting(KubeHttp::describe).containsExactlyInAnyOrder("ADDED a", "ADDED b", "ADDED c");
      for (JsonNode e : initial) {
        assertThat(obj(e).path("kind").asText()).isEqualTo("ConfigMap");
        assertThat(obj(e).path("apiVersion").asText()).isEqualTo("v1");
        assertThat(obj(e).at("/metadata/namespace").asText()).isEqualTo(ns);
        assertThat(rv(obj(e))).isPositive();
      }

      http.create(cms(ns), configMap("d"));
      http.mergePatch(cms(ns) + "/a", labelsPatch("touched", "yes")).expect(200);
      http.delete(cms(ns) + "/b").expect(200);
      List<JsonNode> live = w.next(3);
      assertThat(live).extracting(KubeHttp::describe).containsExactly("ADDED d", "MODIFIED a", "DELETED b");
      assertThat(obj(live.get(1)).at("/metadata/labels/touched").asText()).isEqualTo("yes");
    }
  }

  @Test
  void watch_fromResourceVersion_sendsExactlyTheChangesAfterIt() {
    String ns = http.createNamespace("from-rv");
    http.create(cms(ns), configMap("a"));
    long rvB = rv(http.create(cms(ns), configMap("b")));
    long rvA2 = rv(http.mergePatch(cms(ns) + "/a", labelsPatch("v", "2")).expect(200));
    http.delete(cms(ns) + "/b").expect(200);
    long rvC = rv(http.create(cms(ns), configMap("c")));

    try (WatchStream w = http.watch(cms(ns) + "?resourceVersion=" + rvB)) {
      List<JsonNode> events = w.next(3);
      assertThat(events).extracting(KubeHttp::describe).containsExactly("MODIFIED a", "DELETED b", "ADDED c");
      assertThat(rv(obj(events.get(0)))).isEqualTo(rvA2);
      assertThat(rv(obj(events.get(2)))).isEqualTo(rvC);
      // nothing else was pending: the next event is the next write
      http.create(cms(ns), configMap("marker"));
      assertThat(describe(w.next())).isEqualTo("ADDED marker");
    }
  }

  @Test
  void watch_fromResourceVersionOlderThanTheHistory_sendsOneExpiredErrorEventThenEnds() {
    CacherConfig smallHistory = new CacherConfig(10, Duration.ofMinutes(5), 1_024, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    try (ApiServer small = ApiServer.builder().cacherConfig(smallHistory).build().start();
        KubeHttp h = new KubeHttp(small)) {
      String ns = h.createNamespace("too-old");
      long start = h.listResourceVersion(cms(ns));
      for (int i = 0; i < 15; i++) {
        h.create(cms(ns), configMap("cm-" + i));
      }
      h.list(cms(ns)); // the cache has seen all 15

      try (WatchStream w = h.watch(cms(ns) + "?resourceVersion=" + start)) {
        assertThat(w.code()).as("kube reports a too-old watch in the stream, not as an HTTP error").isEqualTo(200);
        List<JsonNode> events = new ArrayList<>();
        WatchStream.End end = w.awaitEnd(KubeHttp.WAIT, events);
        assertThat(events).as("exactly one event").hasSize(1);
        assertThat(type(events.get(0))).isEqualTo("ERROR");
        assertFailureStatus(obj(events.get(0)), 410, "Expired");
        assertThat(end.clean()).as("the stream ends normally after the ERROR (%s)", end.error()).isTrue();
      }
    }
  }

  /**
   * kube replays any part of its history, however long: only a resourceVersion older than
   * the history is 410. The per-watcher queue bounds what a watcher may fall behind live, not
   * how much history it may resume from.
   */
  @Test
  void watch_fromResourceVersionWithinTheHistory_replaysEveryEvent_evenMoreThanAWatcherQueueHolds() {
    CacherConfig smallQueue = new CacherConfig(10_000, Duration.ofMinutes(5), 64, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    try (ApiServer s = ApiServer.builder().cacherConfig(smallQueue).build().start();
        KubeHttp h = new KubeHttp(s)) {
      String ns = h.createNamespace("long-history");
      long start = h.listResourceVersion(cms(ns));
      List<Long> written = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        written.add(rv(h.create(cms(ns), configMap("cm-" + i))));
      }
      h.list(cms(ns)); // the cache has seen all 100

      try (WatchStream w = h.watch(cms(ns) + "?resourceVersion=" + start)) {
        List<Long> got = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          JsonNode e = w.next();
          assertThat(describe(e)).as("event %d of a watch resuming within the history", i)
              .isEqualTo("ADDED cm-" + i);
          got.add(rv(obj(e)));
        }
        assertThat(got).isEqualTo(written);
      }
    }
  }

  /** kube reads boolean parameters as true unless "0" or "false"; the Python client sends watch=True. */
  @Test
  void watch_isStartedByEveryTrueSpellingOfTheWatchParameter() {
    String ns = http.createNamespace("spelling");
    long start = http.listResourceVersion(cms(ns));
    int i = 0;
    for (String watch : List.of("watch=true", "watch=1", "watch=True", "watch=TRUE")) {
      try (WatchStream w = http.openStream(cms(ns) + "?" + watch + "&resourceVersion=" + start, true)) {
        assertThat(w.code()).as(watch).isEqualTo(200);
        String name = "cm-" + i++;
        http.create(cms(ns), configMap(name));
        JsonNode first = w.next();
        assertThat(describe(first)).as("first event of ?%s (a list would not be an event)", watch)
            .isEqualTo("ADDED " + name);
        start = rv(obj(first));
      }
    }
  }

  // ---- how a watch ends ----------------------------------------------------------------

  @Test
  void watch_withTimeoutSeconds_endsTheStreamCleanly() {
    String ns = http.createNamespace("timeout");
    long rv = http.listResourceVersion(cms(ns));
    long started = System.nanoTime();
    try (WatchStream w = http.watch(cms(ns) + "?timeoutSeconds=1&resourceVersion=" + rv)) {
      List<JsonNode> events = new ArrayList<>();
      WatchStream.End end = w.awaitEnd(KubeHttp.WAIT, events);
      assertThat(end.clean()).as("a normal end of the chunked body (%s)", end.error()).isTrue();
      assertThat(events).as("no ERROR or other event on a timeout").isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }
  }

  // ---- bookmarks and streaming lists ---------------------------------------------------

  @Test
  void watch_withAllowWatchBookmarks_getsBookmarksCarryingAResourceVersion_andOthersGetNone() {
    CacherConfig fastBookmarks = new CacherConfig(1_000, Duration.ofMinutes(5), 1_024, Duration.ofSeconds(1),
        Duration.ofSeconds(3));
    try (ApiServer s = ApiServer.builder().cacherConfig(fastBookmarks).build().start();
        KubeHttp h = new KubeHttp(s)) {
      String ns = h.createNamespace("bookmarks");
      h.create(cms(ns), configMap("a"));
      long start = h.listResourceVersion(cms(ns));
      // opened first, so any bookmark it were (wrongly) sent would be due no later than the other's
      try (WatchStream plain = h.watch(cms(ns) + "?resourceVersion=" + start);
          WatchStream bookmarked = h.watch(cms(ns) + "?allowWatchBookmarks=true&resourceVersion=" + start)) {
        JsonNode bookmark = bookmarked.next();
        assertThat(type(bookmark)).isEqualTo("BOOKMARK");
        assertThat(obj(bookmark).path("kind").asText()).isEqualTo("ConfigMap");
        assertThat(obj(bookmark).path("apiVersion").asText()).isEqualTo("v1");
        assertThat(rv(obj(bookmark))).isGreaterThanOrEqualTo(start);
        assertThat(obj(bookmark).at("/metadata/name").isMissingNode()).as("a bookmark names no object").isTrue();

        h.create(cms(ns), configMap("marker"));
        assertThat(describe(plain.next())).as("a watch without allowWatchBookmarks gets no bookmark")
            .isEqualTo("ADDED marker");
        JsonNode e;
        do {
          e = bookmarked.next();
        } while (type(e).equals("BOOKMARK"));
        assertThat(describe(e)).isEqualTo("ADDED marker");
      }
    }
  }

  @Test
  void watch_withSendInitialEvents_sendsAddedThenAnInitialEventsEndBookmarkThenLiveEvents() {
    String ns = http.createNamespace("watchlist");
    long last = 0;
    for (String n : List.of("a", "b", "c")) {
      last = rv(http.create(cms(ns), configMap(n)));
    }
    List<String> existing = new ArrayList<>(List.of("ADDED a", "ADDED b", "ADDED c"));
    for (String rvParam : List.of("", "&resourceVersion=" + last)) {
      try (WatchStream w = http.watch(cms(ns)
          + "?sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true" + rvParam)) {
        List<JsonNode> initial = w.next(existing.size());
        assertThat(initial).extracting(KubeHttp::describe).containsExactlyInAnyOrderElementsOf(existing);
        JsonNode end = w.next();
        assertThat(type(end)).isEqualTo("BOOKMARK");
        assertThat(obj(end).at("/metadata/annotations").path("k8s.io/initial-events-end").asText())
            .isEqualTo("true");
        assertThat(obj(end).path("kind").asText()).isEqualTo("ConfigMap");
        long snapshot = rv(obj(end));
        assertThat(snapshot).isGreaterThanOrEqualTo(last);

        String live = "live" + rvParam.length();
        http.create(cms(ns), configMap(live));
        JsonNode added = w.next();
        assertThat(describe(added)).isEqualTo("ADDED " + live);
        assertThat(rv(obj(added))).isGreaterThan(snapshot);
        existing.add("ADDED " + live);
      }
    }
  }

  // ---- selectors -----------------------------------------------------------------------

  @Test
  void watch_withLabelSelector_sendsAddedWhenAnObjectStartsMatchingAndDeletedWhenItStops() {
    String ns = http.createNamespace("transitions");
    long start = http.listResourceVersion(cms(ns));
    try (WatchStream w = http.watch(cms(ns) + "?labelSelector=" + q("app=web") + "&resourceVersion="
        + start)) {
      http.create(cms(ns), configMap("x"));
      long startsMatching = rv(http.mergePatch(cms(ns) + "/x", labelsPatch("app", "web")).expect(200));
      JsonNode added = w.next();
      assertThat(describe(added)).isEqualTo("ADDED x");
      assertThat(rv(obj(added))).isEqualTo(startsMatching);
      assertThat(obj(added).at("/metadata/labels/app").asText()).isEqualTo("web");

      http.mergePatch(cms(ns) + "/x", labelsPatch("other", "1")).expect(200);
      assertThat(describe(w.next())).isEqualTo("MODIFIED x");

      long stopsMatching = rv(http.mergePatch(cms(ns) + "/x", labelsPatch("app", "db")).expect(200));
      JsonNode deleted = w.next();
      assertThat(describe(deleted)).isEqualTo("DELETED x");
      assertThat(rv(obj(deleted))).as("the DELETED carries the resourceVersion of the change").isEqualTo(stopsMatching);
      // kube's cacher sends the last state that matched, re-stamped with that resourceVersion
      assertThat(obj(deleted).at("/metadata/labels/app").asText()).isEqualTo("web");

      http.mergePatch(cms(ns) + "/x", labelsPatch("other", "2")).expect(200); // still not matching: no event
      http.create(cms(ns), configMap("marker", Map.of("app", "web"), Map.of()));
      assertThat(describe(w.next())).isEqualTo("ADDED marker");
    }
  }

  @Test
  void watch_withFieldSelectorOnName_fromZero_sendsThatObjectThenItsDeletionOnly() {
    String ns = http.createNamespace("byname");
    http.create(cms(ns), configMap("a"));
    http.create(cms(ns), configMap("b"));
    // what kubectl get -w NAME and kubectl delete --wait send
    try (WatchStream w = http.watch(cms(ns) + "?fieldSelector=" + q("metadata.name=b")
        + "&resourceVersion=0")) {
      assertThat(describe(w.next())).as("the synthetic ADDED kubectl drops").isEqualTo("ADDED b");
      http.mergePatch(cms(ns) + "/a", labelsPatch("x", "1")).expect(200);
      http.delete(cms(ns) + "/b").expect(200);
      assertThat(describe(w.next())).isEqualTo("DELETED b");
    }
  }

  @Test
  void watch_acrossAllNamespaces_seesEventsFromEveryNamespace() {
    String ns1 = http.createNamespace("allns-a");
    String ns2 = http.createNamespace("allns-b");
    String scope = "w-" + ns1;
    long start = http.listResourceVersion("/api/v1/configmaps");
    try (WatchStream w = http.watch("/api/v1/configmaps?labelSelector=" + q("scope=" + scope)
        + "&resourceVersion=" + start)) {
      http.create(cms(ns1), configMap("one", Map.of("scope", scope), Map.of()));
      http.create(cms(ns2), configMap("two", Map.of("scope", scope), Map.of()));
      List<JsonNode> events = w.next(2);
      assertThat(events).extracting(e -> type(e) + " " + obj(e).at("/metadata/namespace").asText() + "/"
          + name(obj(e))).containsExactly("ADDED " + ns1 + "/one", "ADDED " + ns2 + "/two");
    }
  }

  // ---- framing and order ---------------------------------------------------------------

  /** kube clients (client-node, Python) give up on a watch whose headers do not come at once. */
  @Test
  void watch_sendsChunkedResponseHeadersBeforeAnyEventExists() throws Exception {
    String ns = http.createNamespace("headers");
    long rv = http.listResourceVersion(cms(ns));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) KubeHttp.WAIT.toMillis());
      socket.setSoTimeout((int) KubeHttp.WAIT.toMillis());
      RawHttp.writeGet(socket.getOutputStream(), cms(ns) + "?watch=true&resourceVersion=" + rv);
      InputStream in = socket.getInputStream();
      // no write happens until the head is read: the head cannot wait for an event
      Map<String, String> head = RawHttp.readHead(in);
      assertThat(head.get("")).startsWith("HTTP/1.1 200");
      assertThat(head.get("content-type")).startsWith("application/json");
      assertThat(head.get("transfer-encoding")).isEqualToIgnoringCase("chunked");
      assertThat(head).doesNotContainKey("content-length");

      http.create(cms(ns), configMap("first"));
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      while (body.size() == 0 || body.toByteArray()[body.size() - 1] != '\n') {
        byte[] chunk = RawHttp.readChunk(in);
        assertThat(chunk).as("the stream goes on").isNotEmpty();
        body.writeBytes(chunk);
      }
      String line = body.toString(StandardCharsets.UTF_8);
      assertThat(line.indexOf('\n')).as("one event, one line").isEqualTo(line.length() - 1);
      JsonNode event = KubeHttp.JSON.readTree(line);
      assertThat(describe(event)).isEqualTo("ADDED first");
    }
  }

  @Test
  void watch_framesEveryEventAsOneJsonLineEndingWithNewline_evenWhenValuesContainNewlines() {
    String ns = http.createNamespace("framing");
    long start = http.listResourceVersion(cms(ns));
    String tricky = "line one\nline two\r\n\ttab \u2028 \"quoted\" caf\u00e9 \u65e5\u672c " + "x".repeat(200_000);
    try (WatchStream w = http.watch(cms(ns) + "?resourceVersion=" + start)) {
      for (int i = 0; i < 10; i++) {
        http.create(cms(ns), configMap("cm-" + i, Map.of(), Map.of("text", tricky + i)));
      }
      // the helper splits the body at '\n' only, and fails on any piece that is not one whole event
      List<JsonNode> events = w.next(10);
      for (int i = 0; i < 10; i++) {
        assertThat(describe(events.get(i))).isEqualTo("ADDED cm-" + i);
        assertThat(obj(events.get(i)).at("/data/text").asText()).isEqualTo(tricky + i);
      }
    }
  }

  @Test
  void watch_deletedEventCarriesTheResourceVersionOfTheDeletion() {
    String ns = http.createNamespace("deleted-rv");
    long created = rv(http.create(cms(ns), configMap("x")));
    long deletion;
    try (WatchStream w = http.watch(cms(ns) + "?resourceVersion=" + created)) {
      http.delete(cms(ns) + "/x").expect(200);
      JsonNode deleted = w.next();
      assertThat(describe(deleted)).isEqualTo("DELETED x");
      deletion = rv(obj(deleted));
      assertThat(deletion).isGreaterThan(created);
      assertThat(http.listResourceVersion(cms(ns))).isGreaterThanOrEqualTo(deletion);
    }
    // a watch from just before the deletion gets it, a watch from its resourceVersion does not
    try (WatchStream before = http.watch(cms(ns) + "?resourceVersion=" + (deletion - 1));
        WatchStream after = http.watch(cms(ns) + "?resourceVersion=" + deletion)) {
      JsonNode replayed = before.next();
      assertThat(describe(replayed)).isEqualTo("DELETED x");
      assertThat(rv(obj(replayed))).isEqualTo(deletion);
      http.create(cms(ns), configMap("marker"));
      assertThat(describe(after.next())).isEqualTo("ADDED marker");
    }
  }

  @Test
  void watch_deliversConcurrentWritesWithStrictlyIncreasingResourceVersions() throws Exception {
    String ns = http.createNamespace("order");
    long start = http.listResourceVersion(cms(ns));
    ExecutorService writers = Executors.newFixedThreadPool(3,
        r -> Thread.ofPlatform().name("order-writer").daemon(true).unstarted(r));
    try (WatchStream w = http.watch(cms(ns) + "?resourceVersion=" + start)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int writer = t;
        done.add(writers.submit(() -> {
          for (int i = 0; i < 15; i++) {
            String n = "w" + writer + "-" + i;
            http.create(cms(ns), configMap(n));
            http.mergePatch(cms(ns) + "/" + n, labelsPatch("step", "2")).expect(200);
            if (i % 3 == 0) {
              http.delete(cms(ns) + "/" + n).expect(200);
            }
          }
        }));
      }
      for (Future<?> f : done) {
        f.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      }
      int expected = 3 * (15 + 15 + 5);
      List<JsonNode> events = w.next(expected);
      long previous = start;
      Set<String> distinct = new HashSet<>();
      for (JsonNode e : events) {
        long rv = rv(obj(e));
        assertThat(rv).as("resourceVersion of %s after %d", describe(e), previous).isGreaterThan(previous);
        previous = rv;
        distinct.add(describe(e));
      }
      assertThat(distinct).hasSize(expected);
    } finally {
      writers.shutdownNow();
    }
  }
}

package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.describe;
import static io.listwatch.server.http.KubeHttp.names;
import static io.listwatch.server.http.KubeHttp.obj;
import static io.listwatch.server.http.KubeHttp.rv;
import static io.listwatch.server.http.KubeHttp.type;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.storage.Storage;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import io.listwatch.testsupport.Await;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server stopped and started again on the same data directory, as clients see it: the
 * objects are there, resourceVersions keep growing, and informers that reconnect with a
 * resourceVersion from before the restart either resume or are told to relist.
 */
class RestartTest {

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static ApiServer start(Path dataDir) {
    // without the kubernetes endpoints' lease (kube's --endpoint-reconciler-type=none): the
    // server then writes nothing at shutdown, after the last resourceVersion a test reads
    return ApiServer.builder().dataDir(dataDir).endpointReconcilerType("none").build().start();
  }

  @Test
  void restart_keepsEveryObject_andNewWritesGetLargerResourceVersions(@TempDir Path dataDir) {
    String ns;
    JsonNode a;
    long before;
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      ns = http.createNamespace("restart");
      http.create(cms(ns), configMap("a", Map.of(), Map.of("v", "1")));
      http.create(cms(ns), configMap("b"));
      a = http.mergePatch(cms(ns) + "/a", KubeHttp.object("{\"data\":{\"v\":\"2\"}}")).expect(200);
      before = http.listResourceVersion(cms(ns));
    }
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      JsonNode list = http.list(cms(ns));
      assertThat(names(list)).containsExactly("a", "b");
      assertThat(rv(list)).isGreaterThanOrEqualTo(before);
      JsonNode got = http.get(cms(ns) + "/a").expect(200);
      assertThat(got.at("/data/v").asText()).isEqualTo("2");
      assertThat(got.at("/metadata/uid").asText()).isEqualTo(a.at("/metadata/uid").asText());
      assertThat(rv(got)).isEqualTo(rv(a));
      assertThat(http.get("/api/v1/namespaces/" + ns).code()).isEqualTo(200);
      assertThat(names(http.list("/api/v1/namespaces")).stream().filter("default"::equals)).hasSize(1);

      long created = rv(http.create(cms(ns), configMap("c")));
      assertThat(created).as("resourceVersions continue after the restart").isGreaterThan(before);
      long updated = rv(http.mergePatch(cms(ns) + "/b", KubeHttp.object("{\"data\":{\"v\":\"3\"}}")).expect(200));
      assertThat(updated).isGreaterThan(created);
    }
  }

  /** An informer that had seen everything before the restart resumes without a relist. */
  @Test
  void watch_fromTheLastResourceVersionBeforeARestart_resumesWithTheChangesAfterIt(@TempDir Path dataDir) {
    String ns;
    long listed;
    long last;
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      ns = http.createNamespace("resume");
      // the service accounts controller writes the namespace's default account apart from the
      // request: let it land before this server stops, so the next one has nothing to write
      Await.until("the default service account", KubeHttp.WAIT,
          () -> http.get("/api/v1/namespaces/" + ns + "/serviceaccounts/default").code() == 200);
      http.create(cms(ns), configMap("a"));
      listed = http.listResourceVersion(cms(ns));
    }
    // The server's own start-up writes (the aggregated cluster roles, the FlowSchemas' Dangling
    // condition) run apart from the requests and may land after the list above. The watch history after the restart starts at the store's
    // revision, so an informer is only up to date with that revision: read it from the store
    // the server left, which no writer touches between the two servers.
    try (Storage store = RocksDbStorage.builder(dataDir).open()) {
      last = store.currentRevision();
    }
    assertThat(last).as("the revision the first server left").isGreaterThanOrEqualTo(listed);
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server);
        WatchStream w = http.watch(cms(ns) + "?resourceVersion=" + last)) {
      http.create(cms(ns), configMap("b"));
      http.mergePatch(cms(ns) + "/a", KubeHttp.object("{\"data\":{\"v\":\"2\"}}")).expect(200);
      List<JsonNode> events = w.next(2);
      assertThat(events).extracting(KubeHttp::describe).containsExactly("ADDED b", "MODIFIED a");
      assertThat(rv(obj(events.get(0)))).isGreaterThan(last);
    }
  }

  /**
   * A watch from a resourceVersion older than the restart. kube-apiserver's watch cache
   * starts at the store's revision when it starts, so kube answers this with 410 (the client
   * relists); a server that replays from its store may send the missed changes instead.
   * Either is correct; anything else is not. This server answers 410 Expired: its watch
   * history starts at the revision it found on disk.
   */
  @Test
  void watch_fromAnOlderResourceVersionBeforeARestart_getsTheMissedChangesOrAClean410(@TempDir Path dataDir) {
    String ns;
    long rvA;
    long rvA2;
    long rvB;
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      ns = http.createNamespace("old-rv");
      rvA = rv(http.create(cms(ns), configMap("a")));
      rvA2 = rv(http.mergePatch(cms(ns) + "/a", KubeHttp.object("{\"data\":{\"v\":\"2\"}}")).expect(200));
      rvB = rv(http.create(cms(ns), configMap("b")));
    }
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server);
        WatchStream w = http.watch(cms(ns) + "?resourceVersion=" + rvA)) {
      JsonNode first = w.next();
      if (type(first).equals("ERROR")) {
        assertFailureStatus(obj(first), 410, "Expired");
        List<JsonNode> after = new ArrayList<>();
        WatchStream.End end = w.awaitEnd(KubeHttp.WAIT, after);
        assertThat(after).as("nothing after the ERROR").isEmpty();
        assertThat(end.clean()).as("the stream ends normally (%s)", end.error()).isTrue();
        // what the informer does next: relist, then watch from the list
        long relisted = http.listResourceVersion(cms(ns));
        try (WatchStream again = http.watch(cms(ns) + "?resourceVersion=" + relisted)) {
          http.create(cms(ns), configMap("c"));
          assertThat(describe(again.next())).isEqualTo("ADDED c");
        }
      } else {
        assertThat(describe(first)).isEqualTo("MODIFIED a");
        assertThat(rv(obj(first))).isEqualTo(rvA2);
        JsonNode second = w.next();
        assertThat(describe(second)).isEqualTo("ADDED b");
        assertThat(rv(obj(second))).isEqualTo(rvB);
      }
    }
  }

  @Test
  void restart_resumesAPodsGracePeriod_andRemovesItWhenItEnds(@TempDir Path dataDir) {
    io.listwatch.api.clock.FakeClock clock = new io.listwatch.api.clock.FakeClock(
        java.time.Instant.parse("2026-11-24T12:00:00Z"));
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).clock(clock).build().start();
        KubeHttp http = new KubeHttp(server)) {
      http.create("/api/v1/namespaces/default/pods", KubeHttp.pod("graceful", java.util.Map.of(), "node-1"));
      http.delete("/api/v1/namespaces/default/pods/graceful").expect(200); // 30 s of grace
    }
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).clock(clock).build().start();
        KubeHttp http = new KubeHttp(server)) {
      org.assertj.core.api.Assertions.assertThat(http.get("/api/v1/namespaces/default/pods/graceful").code())
          .isEqualTo(200);

      clock.advance(java.time.Duration.ofSeconds(30));

      Await.until("the pod is removed once the grace ends", java.time.Duration.ofSeconds(20),
          () -> http.get("/api/v1/namespaces/default/pods/graceful").code() == 404);
    }
  }
}

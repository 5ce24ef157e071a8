package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.CertifiedKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 over TLS as informer-heavy clients use it: many watches multiplexed on one
 * connection, flow control per stream (a stream that stops reading does not hold up the
 * others), and a clean end of every stream with GOAWAY when the server shuts down.
 */
class Http2TlsMultiplexTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  /** The client's per-stream window: small, so a stream that stops reading fills it after a few events. */
  private static final int STREAM_WINDOW = 16 * 1024;

  @TempDir
  Path dataDir;

  @Test
  void fiveHundredWatchesOnOneConnection_eachGetsEveryEvent_whileOneStalledStreamWaits() throws Exception {
    int watches = 500;
    int events = 8;
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).tls().build().start();
        KubeHttp admin = new KubeHttp(server.url(), server.clientSslContext("admin", "system:masters"));
        H2TlsClient h2 = new H2TlsClient(server.url(), server.issueClientCertificate("admin", "system:masters"),
            server.caCertificate(), STREAM_WINDOW)) {
      String ns = admin.createNamespace("h2-fanout");
      String path = "/api/v1/namespaces/" + ns + "/configmaps?watch=true";
      List<H2TlsClient.Stream> streams = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        streams.add(h2.get(path));
      }
      for (H2TlsClient.Stream s : streams) {
        assertThat(s.status.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("200");
      }
      H2TlsClient.Stream stalled = streams.getFirst();
      stalled.stopReading();

      // each event is ~6 KB: the stalled stream's 16 KB window is full after three
      String payload = "x".repeat(6 * 1024);
      for (int i = 0; i < events; i++) {
        ObjectNode cm = KubeHttp.configMap("cm-" + i, Map.of(), Map.of("payload", payload));
        admin.create("/api/v1/namespaces/" + ns + "/configmaps", cm);
      }

      for (H2TlsClient.Stream s : streams.subList(1, watches)) {
        assertThat(s.awaitLines(events, WAIT)).as("stream %s received every event (got %s)", s.channel.stream().id(),
            s.lines.get()).isTrue();
      }
      assertThat(stalled.bytes.get()).as("bytes the stalled stream received: at most its window")
          .isLessThanOrEqualTo(STREAM_WINDOW);
      assertThat(stalled.lines.get()).isLessThan(events);
      assertThat(h2.connected()).as("all of it on the one connection").isTrue();
      assertThat(server.negotiatedProtocols()).containsEntry("h2", 1L);
    }
  }

  /**
   * A connection of many watch streams whose client stops reading for a moment: the server
   * buffers the burst for each stream (the stream's own buffer, and the connection's), and
   * ends no watcher, though the burst (200 streams × 12 events of ~6 KiB, ~14 MiB) is far more
   * than one HTTP/1.1 connection's 1 MiB and the kernel's socket buffers, and each watcher's
   * queue holds only 4 events. Once the client reads again, every stream has every event.
   */
  @Test
  void aPausedConnectionOfManyStreams_buffersABurstForEach_andEndsNoWatcher() throws Exception {
    int watches = 200;
    int events = 12;
    CacherConfig config = new CacherConfig(100_000, Duration.ofMinutes(5), 4, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).tls().cacherConfig(config).build().start();
        KubeHttp admin = new KubeHttp(server.url(), server.clientSslContext("admin", "system:masters"));
        H2TlsClient h2 = new H2TlsClient(server.url(), server.issueClientCertificate("admin", "system:masters"),
            server.caCertificate(), 1024 * 1024)) {
      h2.growConnectionWindow(256 * 1024 * 1024);
      String ns = admin.createNamespace("h2-burst");
      String path = "/api/v1/namespaces/" + ns + "/configmaps?watch=true";
      List<H2TlsClient.Stream> streams = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        streams.add(h2.get(path));
      }
      for (H2TlsClient.Stream s : streams) {
        assertThat(s.status.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("200");
      }
      try (WatchStream probe = admin.watch(path)) {
        h2.readConnection(false);
        String payload = "x".repeat(6 * 1024);
        for (int i = 0; i < events; i++) {
          admin.create("/api/v1/namespaces/" + ns + "/configmaps",
              KubeHttp.configMap("cm-" + i, Map.of(), Map.of("payload", payload)));
        }
        admin.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("sentinel"));
        // events reach watchers in order: once the probe has the sentinel, every watcher was offered the burst
        for (int i = 0; i <= events; i++) {
          assertThat(probe.next(WAIT).path("type").asText()).isEqualTo("ADDED");
        }
      }
      h2.readConnection(true);
      for (H2TlsClient.Stream s : streams) {
        assertThat(s.awaitLines(events + 1, WAIT)).as("stream %s received every event (got %s, ended: %s)",
            s.channel.stream().id(), s.lines.get(), s.ended.getNow("no")).isTrue();
      }
      assertThat(streams).allSatisfy(s -> assertThat(s.ended).isNotDone());
    }
  }

  @Test
  void pingsAreAnswered_andServerShutdown_sendsGoAway_andEndsEveryWatchStreamCleanly() throws Exception {
    ApiServer server = ApiServer.builder().dataDir(dataDir).tls().build().start();
    CertifiedKey admin = server.issueClientCertificate("admin", "system:masters");
    try (H2TlsClient h2 = new H2TlsClient(server.url(), admin, server.caCertificate(), 1024 * 1024)) {
      List<H2TlsClient.Stream> streams = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        streams.add(h2.get("/api/v1/namespaces/default/configmaps?watch=true"));
      }
      for (H2TlsClient.Stream s : streams) {
        assertThat(s.status.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("200");
      }
      // client-go pings a connection whose watches are quiet; the server must answer
      h2.ping(0x5eed);
      assertThat(h2.pingAck.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(0x5eedL);

      server.close();

      assertThat(h2.goAway.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("GOAWAY received").isTrue();
      for (H2TlsClient.Stream s : streams) {
        assertThat(s.ended.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("how the watch ended").isEqualTo("end-stream");
      }
    } finally {
      server.close();
    }
  }
}

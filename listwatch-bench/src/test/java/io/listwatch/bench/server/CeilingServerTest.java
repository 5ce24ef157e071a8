package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CeilingServerTest {

  private static final String HEAD = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
      + "cache-control: no-cache, private\r\ntransfer-encoding: chunked\r\n\r\n";
  private static final String EVENT = "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"annotations\":{"
      + Pods.MARKER + "12345-0\"}}}}\n";
  private static final String CHUNK = Integer.toHexString(EVENT.length()) + "\r\n" + EVENT + "\r\n";
  private static final String WATCH = "/api/v1/namespaces/default/pods?watch=true&resourceVersion=7";

  private static CeilingServer start() throws Exception {
    return CeilingServer.start(bytes(HEAD), bytes(CHUNK), 2, 0);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String get(InetSocketAddress a, String path, int bytes) throws Exception {
    try (Socket s = new Socket(a.getAddress(), a.getPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(bytes("GET " + path + " HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n"));
      InputStream in = s.getInputStream();
      return new String(in.readNBytes(bytes), StandardCharsets.UTF_8);
    }
  }

  @Test
  void answersAWatch_withTheHead_thenTheChunkOverAndOver() throws Exception {
    try (CeilingServer server = start()) {
      int n = 5;
      String got = get(server.address(), WATCH, HEAD.length() + n * CHUNK.length());
      assertThat(got).isEqualTo(HEAD + CHUNK.repeat(n));
    }
  }

  @Test
  void keepsWritingWholeChunks_pastTheSharedBuffersEnd() throws Exception {
    try (CeilingServer server = start()) {
      int n = CeilingServer.BUFFER_BYTES / CHUNK.length() * 3 + 7;
      String got = get(server.address(), WATCH, HEAD.length() + n * CHUNK.length());
      assertThat(got.substring(HEAD.length())).isEqualTo(CHUNK.repeat(n));
    }
  }

  @Test
  void refusesARequestThatIsNotAWatch() throws Exception {
    try (CeilingServer server = start()) {
      String got = get(server.address(), "/api/v1/namespaces/default/pods", 1000);
      assertThat(got).startsWith("HTTP/1.1 400 ");
    }
  }

  @Test
  void feedsTheSameFleetAsTheApiServer_everyWatcherCountingEvents() throws Exception {
    try (CeilingServer server = start();
        RawWatchFleet fleet = new RawWatchFleet(server.address(), WatchWire.JSON, false)) {
      fleet.open(WATCH, 10);
      FanOutPoint.awaitTrue(() -> fleet.tally().streaming() == 10 && fleet.tally().events() > 1000, 10_000);
      assertThat(fleet.tally().streaming()).isEqualTo(10);
      assertThat(fleet.tally().events()).isGreaterThan(1000);
      assertThat(fleet.tally().failed()).isZero();
    }
  }

  @Test
  void captureTakesTheHeadAndTheFirstChunk_afterTheWrite() throws Exception {
    try (CeilingServer server = start()) {
      AtomicInteger writes = new AtomicInteger();
      WatchCapture c = WatchCapture.capture(server.address(), WATCH, writes::incrementAndGet);
      assertThat(writes).hasValue(1);
      assertThat(new String(c.head(), StandardCharsets.UTF_8)).isEqualTo(HEAD);
      assertThat(new String(c.chunk(), StandardCharsets.UTF_8)).isEqualTo(CHUNK);
      assertThat(c.events()).isEqualTo(1);
    }
  }

  @Test
  void theCapturedChunkParsesAsOneEvent_withItsSendTime() {
    WatchTally tally = WatchWire.JSON.tally();
    tally.recordSentBetween(0, 100_000);
    ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.JSON);
    byte[] wire = bytes(HEAD + CHUNK + CHUNK);
    ByteBuffer b = ByteBuffer.allocateDirect(wire.length + 8).order(ByteOrder.LITTLE_ENDIAN).put(wire);
    assertThat(r.read(b, 0, wire.length, 12_345 + 1_000)).isTrue();
    tally.publish();
    assertThat(tally.events()).isEqualTo(2);
    assertThat(tally.unparsed()).isZero();
  }

  @Test
  void isWatch_onlyForAGetWithWatchTrue() {
    assertThat(CeilingServer.isWatch("GET " + WATCH + " HTTP/1.1\r\nHost: x\r\n\r\n")).isTrue();
    assertThat(CeilingServer.isWatch("GET /api/v1/pods?resourceVersion=1&watch=1 HTTP/1.1\r\n\r\n")).isTrue();
    assertThat(CeilingServer.isWatch("GET /api/v1/pods HTTP/1.1\r\n\r\n")).isFalse();
    assertThat(CeilingServer.isWatch("POST " + WATCH + " HTTP/1.1\r\n\r\n")).isFalse();
  }
}

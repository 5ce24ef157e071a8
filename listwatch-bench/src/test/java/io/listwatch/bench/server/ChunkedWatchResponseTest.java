package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkedWatchResponseTest {

  private static final String MARKER = "\"sent\":\"";

  private static String event(long sent, int padding) {
    return "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"annotations\":{" + MARKER.substring(0, MARKER.length())
        + sent + "-" + sent / 1000 + "\"}},\"pad\":\"" + "x".repeat(padding) + "\"}}\n";
  }

  private static String chunk(String data) {
    return Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n";
  }

  private static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
      + "Transfer-Encoding: chunked\r\n\r\n";

  /** Feeds {@code wire} in pieces of {@code step} bytes; returns whether the watch is still open. */
  private static boolean feed(ChunkedWatchResponse r, String wire, int step, long now) {
    byte[] bytes = wire.getBytes(StandardCharsets.UTF_8);
    boolean open = true;
    for (int at = 0; at < bytes.length && open; at += step) {
      int n = Math.min(step, bytes.length - at);
      ByteBuffer b = ByteBuffer.allocateDirect(n + 8).order(ByteOrder.LITTLE_ENDIAN);
      b.put(bytes, at, n);
      open = r.read(b, 0, n, now);
    }
    return open;
  }

  @Test
  void countsEveryEvent_andReadsItsSendTime_howeverTheBytesAreSplit() {
    // two events in one chunk, one long event (past the head) in its own chunk
    String wire = HEAD + chunk(event(1_000, 10) + event(2_000, 10)) + chunk(event(3_000, 600));
    for (int step : new int[] {1, 3, 7, 64, 100_000}) {
      WatchTally tally = new WatchTally(MARKER, 0);
      tally.recordSentBetween(0, 10_000);
      ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.JSON);
      assertThat(feed(r, wire, step, 5_000)).isTrue();
      tally.publish();
      assertThat(tally.events()).as("step %d", step).isEqualTo(3);
      assertThat(tally.streaming()).isEqualTo(1);
      assertThat(tally.unparsed()).isZero();
      // latencies 4,000, 3,000 and 2,000 ns
      assertThat(tally.latencies().getTotalCount()).isEqualTo(3);
      assertThat(tally.latencies().lowestEquivalentValue(tally.latencies().getMaxValue())).isEqualTo(4_000);
    }
  }

  @Test
  void recordsLatency_onlyForEventsSentInTheWindow() {
    WatchTally tally = new WatchTally(MARKER, 0);
    tally.recordSentBetween(1_500, 2_500);
    ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.JSON);
    feed(r, HEAD + chunk(event(1_000, 1) + event(2_000, 1) + event(3_000, 1)), 1_000, 5_000);
    tally.publish();
    assertThat(tally.events()).isEqualTo(3);
    assertThat(tally.latencies().getTotalCount()).isEqualTo(1);
    assertThat(tally.latencies().lowestEquivalentValue(tally.latencies().getMaxValue())).isEqualTo(3_000);
  }

  @Test
  void theLastChunk_endsTheWatch_normally() {
    WatchTally tally = new WatchTally(MARKER, 0);
    ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.JSON);
    assertThat(feed(r, HEAD + chunk(event(1, 1)) + "0\r\n\r\n", 5, 10)).isFalse();
    tally.publish();
    assertThat(r.done()).isTrue();
    assertThat(tally.ended()).isEqualTo(1);
    assertThat(tally.failed()).isZero();
    assertThat(tally.streaming()).isZero();
  }

  @Test
  void aRefusedWatch_fails_withItsStatusLine() {
    WatchTally tally = new WatchTally(MARKER, 0);
    ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.JSON);
    assertThat(feed(r, "HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\n{}", 1_000, 10)).isFalse();
    tally.publish();
    assertThat(tally.failed()).isEqualTo(1);
    assertThat(tally.firstFailure()).contains("403");
  }

  @Test
  void aConnectionClosedBeforeTheHead_isAFailure_butMidStreamIsAnEnd() {
    WatchTally before = new WatchTally(MARKER, 0);
    new ChunkedWatchResponse(before, WatchWire.JSON).connectionClosed(null);
    before.publish();
    assertThat(before.failed()).isEqualTo(1);

    WatchTally mid = new WatchTally(MARKER, 0);
    ChunkedWatchResponse r = new ChunkedWatchResponse(mid, WatchWire.JSON);
    feed(r, HEAD + chunk(event(1, 1)), 1_000, 10);
    r.connectionClosed(null);
    mid.publish();
    assertThat(mid.ended()).isEqualTo(1);
    assertThat(mid.failed()).isZero();
  }
}

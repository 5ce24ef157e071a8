package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebSocketWatchResponseTest {

  private static final String MARKER = "\"sent\":\"";
  private static final byte[] HEAD = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
      + "Connection: upgrade\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

  private static byte[] event(long sent, int padding) {
    return ("{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"annotations\":{" + MARKER + sent + "-" + sent / 1000
        + "\"}},\"pad\":\"" + "x".repeat(padding) + "\"}}\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** An unfragmented, unmasked server frame, its length in the shortest form. */
  private static byte[] frame(int opcode, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x80 | opcode);
    int n = payload.length;
    if (n <= 125) {
      out.write(n);
    } else if (n <= 0xFFFF) {
      out.write(126);
      out.write(n >> 8);
      out.write(n);
    } else {
      out.write(127);
      for (int shift = 56; shift >= 0; shift -= 8) {
        out.write((int) ((long) n >> shift));
      }
    }
    out.writeBytes(payload);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Feeds {@code wire} in pieces of {@code step} bytes; returns whether the watch is still open. */
  private static boolean feed(WebSocketWatchResponse r, byte[] wire, int step, long now) {
    boolean open = true;
    for (int at = 0; at < wire.length && open; at += step) {
      int n = Math.min(step, wire.length - at);
      ByteBuffer b = ByteBuffer.allocateDirect(n + 8).order(ByteOrder.LITTLE_ENDIAN);
      b.put(wire, at, n);
      open = r.read(b, 0, n, now);
    }
    return open;
  }

  @Test
  void countsOneEventPerTextFrame_andReadsItsSendTime_howeverTheBytesAreSplit() {
    // 7-bit, 16-bit and 64-bit payload lengths, a ping in between (not an event)
    byte[] wire = concat(HEAD, frame(1, event(1_000, 10)), frame(9, new byte[0]), frame(1, event(2_000, 300)),
        frame(1, event(3_000, 70_000)));
    for (int step : new int[] {1, 3, 7, 64, 1_000_000}) {
      WatchTally tally = new WatchTally(MARKER, 0);
      tally.recordSentBetween(0, 10_000);
      WebSocketWatchResponse r = new WebSocketWatchResponse(tally);
      assertThat(feed(r, wire, step, 5_000)).isTrue();
      tally.publish();
      assertThat(tally.events()).as("step %d", step).isEqualTo(3);
      assertThat(tally.streaming()).isEqualTo(1);
      assertThat(tally.unparsed()).isZero();
      assertThat(tally.latencies().getTotalCount()).isEqualTo(3);
      assertThat(tally.latencies().lowestEquivalentValue(tally.latencies().getMaxValue())).isEqualTo(4_000);
    }
  }

  @Test
  void aCloseFrame_endsTheWatch_normally() {
    WatchTally tally = new WatchTally(MARKER, 0);
    WebSocketWatchResponse r = new WebSocketWatchResponse(tally);
    assertThat(feed(r, concat(HEAD, frame(1, event(1, 1)), frame(8, new byte[] {0x03, (byte) 0xE8})), 5, 10))
        .isFalse();
    tally.publish();
    assertThat(tally.events()).isEqualTo(1);
    assertThat(tally.ended()).isEqualTo(1);
    assertThat(tally.failed()).isZero();
  }

  @Test
  void aRefusedUpgrade_fails_withItsStatusLine() {
    WatchTally tally = new WatchTally(MARKER, 0);
    WebSocketWatchResponse r = new WebSocketWatchResponse(tally);
    assertThat(feed(r, "HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n{}".getBytes(StandardCharsets.US_ASCII),
        1_000, 10)).isFalse();
    tally.publish();
    assertThat(tally.failed()).isEqualTo(1);
    assertThat(tally.firstFailure()).contains("400");
  }
}

package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LengthPrefixedEventsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A benchmark pod as the server stores it, sent at {@code sent}, as a protobuf watch event. */
  private static byte[] event(String type, int index, long sent, int objectBytes) throws Exception {
    ObjectNode pod = (ObjectNode) JSON.readTree(new Pods(objectBytes).create("default", "pod-" + index, index));
    ObjectNode meta = (ObjectNode) pod.get("metadata");
    ((ObjectNode) meta.get("annotations")).put(Pods.SENT, sent + "-" + index);
    meta.put("uid", "0f6d3a52-8a7e-4bd4-9a51-2f0e6f6a1c" + String.format("%02d", index % 100))
        .put("resourceVersion", Long.toString(100_000 + index)).put("creationTimestamp", "2026-11-24T19:00:00Z");
    byte[] watchEvent = KubeProtobuf.watchEvent(type, KubeProtobuf.encode(JSON.writeValueAsBytes(pod)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(KubeProtobuf.lengthPrefix(watchEvent.length));
    out.write(watchEvent);
    return out.toByteArray();
  }

  private static String chunk(byte[] data) {
    return Integer.toHexString(data.length) + "\r\n";
  }

  @Test
  void countsEveryEvent_andReadsItsSendTime_howeverTheBytesAreSplit() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    wire.write(("HTTP/1.1 200 OK\r\nContent-Type: " + KubeProtobuf.WATCH_MEDIA_TYPE
        + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    byte[] both = concat(event("ADDED", 1, 1_000, 1024), event("MODIFIED", 2, 2_000, 1024));
    byte[] big = event("MODIFIED", 3, 3_000, 4096);
    for (byte[] data : new byte[][] {both, big}) {
      wire.write(chunk(data).getBytes(StandardCharsets.US_ASCII));
      wire.write(data);
      wire.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    byte[] bytes = wire.toByteArray();
    for (int step : new int[] {1, 3, 7, 64, 100_000}) {
      WatchTally tally = WatchWire.PROTOBUF.tally();
      tally.recordSentBetween(0, 10_000);
      ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.PROTOBUF);
      for (int at = 0; at < bytes.length; at += step) {
        int n = Math.min(step, bytes.length - at);
        ByteBuffer b = ByteBuffer.allocateDirect(n).order(ByteOrder.LITTLE_ENDIAN);
        b.put(bytes, at, n);
        assertThat(r.read(b, 0, n, 5_000)).isTrue();
      }
      tally.publish();
      assertThat(tally.events()).as("step %d", step).isEqualTo(3);
      assertThat(tally.unparsed()).as("step %d", step).isZero();
      assertThat(tally.latencies().getTotalCount()).isEqualTo(3);
      assertThat(tally.latencies().lowestEquivalentValue(tally.latencies().getMaxValue())).isEqualTo(4_000);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}

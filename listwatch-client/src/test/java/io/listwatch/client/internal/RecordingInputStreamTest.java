package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordingInputStreamTest {

  @Test
  void copy_returnsExactBytes_acrossManyDiscardsCompactionsAndGrowth() throws Exception {
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      all.append("{\"item\":").append(i).append("}");
    }
    all.append("x".repeat(100_000)); // one item larger than the initial window
    byte[] bytes = all.toString().getBytes(StandardCharsets.US_ASCII);
    RecordingInputStream in = new RecordingInputStream(new ByteArrayInputStream(bytes));

    byte[] buf = new byte[3_000];
    long read = 0;
    long itemStart = 0;
    int checked = 0;
    int n;
    while ((n = in.read(buf, 0, buf.length)) > 0) {
      read += n;
      // take every complete item, then forget it, as the list decoder does
      while (true) {
        long end = itemStart;
        while (end < read && bytes[(int) end] != '}' && bytes[(int) end] != 'x') {
          end++;
        }
        if (end >= read || bytes[(int) end] == 'x') {
          break;
        }
        byte[] item = in.copy(itemStart, end + 1);
        assertThat(new String(item, StandardCharsets.US_ASCII))
            .isEqualTo(new String(bytes, (int) itemStart, (int) (end + 1 - itemStart), StandardCharsets.US_ASCII));
        checked++;
        itemStart = end + 1;
        in.discardBefore(itemStart);
      }
    }
    assertThat(checked).isEqualTo(20_000);
    byte[] tail = in.copy(itemStart, read);
    assertThat(tail).hasSize(100_000).containsOnly((byte) 'x');
    assertThat(in.copy(itemStart - 1, read)).as("discarded bytes are gone").isNull();
  }
}

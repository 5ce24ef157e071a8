package io.listwatch.bench.server;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One watch stream's body as newline-delimited events (the HTTP/1.1 chunk data, or the DATA
 * frames of an HTTP/2 stream): every {@code '\n'} ends one event. The first
 * {@value WatchTally#HEAD} bytes of each event (or the whole event, if shorter) are copied in
 * bulk into a head buffer, across reads when an event starts near the end of one, and handed
 * to the {@link WatchTally}; the rest of the event is only searched for its newline, eight
 * bytes at a time. Allocates nothing per event.
 *
 * <p>Not thread-safe: confined to the thread that reads the stream.
 */
final class EventLines implements WatchEvents {

  private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private final WatchTally tally;
  private final SeenWrites watch;
  private final byte[] head = new byte[WatchTally.HEAD];
  private int headLen;
  private boolean capturing = true;

  EventLines(WatchTally tally) {
    this.tally = tally;
    this.watch = tally.watch();
  }

  @Override
  public void data(ByteBuffer b, int from, int to, long now) {
    int p = from;
    while (p < to) {
      int nl = indexOfNewline(b, p, to);
      if (capturing) {
        int need = WatchTally.HEAD - headLen;
        int lineEnd = nl < 0 ? to : nl;
        int take = Math.min(lineEnd - p, need);
        b.get(p, head, headLen, take);
        headLen += take;
        if (nl >= 0 && nl - p <= need) { // the event ends within its head
          tally.event(watch, head, headLen, now);
          headLen = 0;
          p = nl + 1;
        } else if (headLen == WatchTally.HEAD) {
          tally.event(watch, head, headLen, now);
          headLen = 0;
          if (nl < 0) {
            capturing = false; // the rest of this read belongs to the same event
            return;
          }
          p = nl + 1;
        } else {
          return;
        }
      } else if (nl < 0) {
        return;
      } else {
        p = nl + 1;
        capturing = true;
        headLen = 0;
      }
    }
  }

  /** The index of the first '\n' in [from, to), or -1; eight bytes at a time. */
  static int indexOfNewline(ByteBuffer b, int from, int to) {
    boolean big = b.order() == ByteOrder.BIG_ENDIAN;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long v = b.getLong(i);
      if (big) {
        v = Long.reverseBytes(v);
      }
      v ^= NEWLINES;
      long t = (v - ONES) & ~v & HIGHS;
      if (t != 0) {
        return i + (Long.numberOfTrailingZeros(t) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b.get(i) == '\n') {
        return i;
      }
    }
    return -1;
  }

  @Override
  public SeenWrites watch() {
    return watch;
  }
}

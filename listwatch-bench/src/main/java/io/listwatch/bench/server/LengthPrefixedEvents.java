package io.listwatch.bench.server;

import java.nio.ByteBuffer;

/**
 * A protobuf watch stream's body ({@code application/vnd.kubernetes.protobuf;stream=watch}):
 * each event is a 4-byte big-endian length, then a meta.v1 WatchEvent of that many bytes. The
 * first {@link #HEAD} bytes of each event (or the whole event, if shorter) are copied into a
 * head buffer, across reads, and handed to the {@link WatchTally}; the rest is skipped. A
 * protobuf event carries the send time further in than a JSON one (the object's metadata
 * comes after the event type and the envelope, and annotations after the labels), hence the
 * larger head. Allocates nothing per event.
 *
 * <p>Not thread-safe: confined to the thread that reads the stream.
 */
final class LengthPrefixedEvents implements WatchEvents {

  /** How many leading bytes of each event are searched for the send time. */
  static final int HEAD = 512;

  private final WatchTally tally;
  private final SeenWrites watch;
  private final byte[] head = new byte[HEAD];
  private int headLen;
  private int lengthBytes; // of the current event's length prefix, read so far (0..4)
  private int length;
  private int remaining; // bytes of the current event still to come, once its length is known

  LengthPrefixedEvents(WatchTally tally) {
    this.tally = tally;
    this.watch = tally.watch();
  }

  @Override
  public void data(ByteBuffer b, int from, int to, long now) {
    int p = from;
    while (p < to) {
      if (lengthBytes < 4) {
        length = (length << 8) | (b.get(p++) & 0xff);
        if (++lengthBytes == 4) {
          remaining = length;
          headLen = 0;
          if (remaining == 0) {
            event(now);
          }
        }
        continue;
      }
      int take = Math.min(to - p, remaining);
      int copy = Math.min(take, HEAD - headLen);
      if (copy > 0) {
        b.get(p, head, headLen, copy);
        headLen += copy;
      }
      p += take;
      remaining -= take;
      if (remaining == 0) {
        event(now);
      }
    }
  }

  private void event(long now) {
    tally.event(watch, head, headLen, now);
    lengthBytes = 0;
    length = 0;
  }

  @Override
  public SeenWrites watch() {
    return watch;
  }
}

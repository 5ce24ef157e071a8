package io.listwatch.bench.server;

import java.nio.ByteBuffer;

/**
 * A WebSocket watch parsed by hand, for {@link RawWatchFleet}: the 101 response head, then
 * frames (RFC 6455 section 5.2), one event per text or binary message, whose send time is read
 * from its first {@link WatchTally#HEAD} bytes. A Close frame ends the watch. Nothing is
 * allocated per event and no payload byte is copied beyond those first ones, as the chunked
 * parser does for HTTP/1.1, so the two transports are measured with clients of the same cost.
 * Server frames are unfragmented and unmasked (a mask, if any, is skipped, not applied).
 *
 * <p>Confined to the fleet's reader thread.
 */
final class WebSocketWatchResponse implements WatchResponse {

  private static final int HEADERS = 0;
  private static final int FRAME_HEAD = 1;
  private static final int PAYLOAD = 2;
  private static final int DONE = 3;

  private final WatchTally tally;
  private final SeenWrites watch;
  private int state = HEADERS;
  private final ResponseHead responseHead = new ResponseHead();
  private final byte[] frameHead = new byte[14];
  private int frameHeadLen;
  private int opcode;
  private long remaining;
  private final byte[] head = new byte[WatchTally.HEAD];
  private int headLen;

  WebSocketWatchResponse(WatchTally tally) {
    this.tally = tally;
    this.watch = tally.watch();
  }

  @Override
  public boolean read(ByteBuffer b, int from, int to, long now) {
    int p = from;
    while (p < to) {
      switch (state) {
        case HEADERS -> {
          if (responseHead.take(b.get(p++))) {
            String line = responseHead.statusLine();
            if (!line.startsWith("HTTP/1.1 101")) {
              end("watch answered " + line);
              return false;
            }
            state = FRAME_HEAD;
            tally.started();
          }
        }
        case FRAME_HEAD -> {
          frameHead[frameHeadLen++] = b.get(p++);
          if (frameHeadLen >= 2 && frameHeadLen == headerLength()) {
            opcode = frameHead[0] & 0x0F;
            remaining = payloadLength();
            headLen = 0;
            frameHeadLen = 0;
            state = PAYLOAD;
            if (remaining == 0 && !messageEnd(now)) {
              return false;
            }
          }
        }
        case PAYLOAD -> {
          int end = (int) Math.min(to, p + remaining);
          int take = Math.min(end - p, head.length - headLen);
          if (take > 0) {
            b.get(p, head, headLen, take);
            headLen += take;
          }
          remaining -= end - p;
          p = end;
          if (remaining == 0 && !messageEnd(now)) {
            return false;
          }
        }
        default -> {
          return false;
        }
      }
    }
    return true;
  }

  /** The whole header's length, known once its first two bytes are in. */
  private int headerLength() {
    int len7 = frameHead[1] & 0x7F;
    int mask = (frameHead[1] & 0x80) != 0 ? 4 : 0;
    return 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + mask;
  }

  private long payloadLength() {
    int len7 = frameHead[1] & 0x7F;
    if (len7 < 126) {
      return len7;
    }
    int n = len7 == 126 ? 2 : 8;
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = (v << 8) | (frameHead[2 + i] & 0xFF);
    }
    return v;
  }

  /** A frame's payload is all in: counts an event, or ends the watch on a Close. */
  private boolean messageEnd(long now) {
    state = FRAME_HEAD;
    if (opcode == 0x1 || opcode == 0x2) {
      tally.event(watch, head, headLen, now);
    } else if (opcode == 0x8) {
      end(null); // the server ended the watch
      return false;
    }
    return true;
  }

  @Override
  public void connectionClosed(String failure) {
    if (state != DONE) {
      end(failure != null ? failure : state == HEADERS ? "connection closed before the WebSocket handshake" : null);
    }
  }

  private void end(String failure) {
    boolean wasStreaming = state != HEADERS;
    state = DONE;
    tally.stopped(watch, wasStreaming, failure);
  }
}

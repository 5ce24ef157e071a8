package io.listwatch.bench.server;

import java.nio.ByteBuffer;

/**
 * One HTTP/1.1 watch response parsed by hand as its bytes arrive: the response head (only
 * the status line is kept: anything but 200 fails the watch), then the chunked body, whose
 * chunk data goes to the {@link WatchEvents} of the watch's {@link WatchWire}, which count into
 * the same {@link WatchTally} as the response. The zero-length last chunk ends the watch.
 *
 * <p>Not thread-safe: confined to the thread that reads the connection.
 */
final class ChunkedWatchResponse implements WatchResponse {

  private static final int HEADERS = 0;
  private static final int SIZE = 1;
  private static final int DATA = 2;
  private static final int DATA_END = 3;
  private static final int DONE = 4;

  private final WatchTally tally;
  private final WatchEvents events;
  private int state = HEADERS;
  private final ResponseHead responseHead = new ResponseHead();
  private long size;
  private boolean sizeDone;
  private long remaining;

  /** A response in {@code wire}'s encoding, whose start, events and end count in {@code tally}. */
  ChunkedWatchResponse(WatchTally tally, WatchWire wire) {
    this.tally = tally;
    this.events = wire.events(tally);
  }

  /** Whether the watch has ended (by the server, or failed). */
  boolean done() {
    return state == DONE;
  }

  /**
   * Bytes [from, to) of {@code b} (absolute indexes), received at {@code now}. Returns false
   * once the watch has ended; the caller then closes the connection.
   */
  @Override
  public boolean read(ByteBuffer b, int from, int to, long now) {
    int p = from;
    while (p < to) {
      switch (state) {
        case HEADERS -> {
          if (responseHead.take(b.get(p++))) {
            String line = responseHead.statusLine();
            if (!line.startsWith("HTTP/1.1 200")) {
              fail("watch answered " + line);
              return false;
            }
            state = SIZE;
            tally.started();
          }
        }
        case SIZE -> {
          byte x = b.get(p++);
          if (x == '\n') {
            if (size == 0) {
              end(null); // the last chunk: the server ended the watch
              return false;
            }
            remaining = size;
            size = 0;
            sizeDone = false;
            state = DATA;
          } else if (!sizeDone) {
            int v = Character.digit(x, 16);
            if (v >= 0) {
              size = size * 16 + v;
            } else {
              sizeDone = true; // '\r' or a chunk extension
            }
          }
        }
        case DATA -> {
          int end = (int) Math.min(to, p + remaining);
          events.data(b, p, end, now);
          remaining -= end - p;
          p = end;
          if (remaining == 0) {
            state = DATA_END;
          }
        }
        case DATA_END -> {
          if (b.get(p++) == '\n') {
            state = SIZE;
          }
        }
        default -> {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The connection ended ({@code failure} null) or broke. Closed before the response head,
   * it is a failure; closed mid-stream, the server ended the watch (it closes the connections
   * of watchers it drops as too slow).
   */
  @Override
  public void connectionClosed(String failure) {
    if (state != DONE) {
      end(failure != null ? failure : state == HEADERS ? "connection closed before the response head" : null);
    }
  }

  private void fail(String failure) {
    end(failure);
  }

  private void end(String failure) {
    boolean wasStreaming = state != HEADERS;
    state = DONE;
    tally.stopped(events.watch(), wasStreaming, failure);
  }
}

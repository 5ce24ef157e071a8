package io.listwatch.apiserver.cacher;

import java.util.concurrent.Executor;

/**
 * Where a {@link CacheWatcher} writes: one watch response on one transport (an HTTP/1.1
 * chunked body, an HTTP/2 stream, a WebSocket). Every transport implements this, so the
 * fan-out path is the same for all of them.
 *
 * <p>All methods except {@link #executor()} are called on {@link #executor()} only.
 */
public interface WatchSink {

  /**
   * Where the watcher drains its queue: the event loop that owns the connection (one thread,
   * tasks run in order).
   */
  Executor executor();

  /**
   * Runs {@code turn} on {@link #executor()} after the event loop has served its other
   * connections once. A watcher with much to write (its initial events, a replayed history)
   * writes a bounded turn and goes on here, so that the loop's other clients are not held up
   * until it is done. By default a task for the executor, which is all an executor without
   * connections of its own can offer.
   */
  default void nextTurn(Runnable turn) {
    executor().execute(turn);
  }

  /** How this watch's events are written; fixed for the watch's life. */
  default WatchEncoding encoding() {
    return WatchEncoding.JSON;
  }

  /** False while the connection's outbound buffer is over its high-water mark. */
  boolean isWritable();

  /**
   * Writes whole events, as their parts in order (one batch may hold many events); the array
   * and its parts are the sink's from then on, and no part is changed afterwards. A part may be
   * shared with every other watcher that gets the same event (serialized once), so a sink
   * wraps parts, never writes into them.
   *
   * <p>Protobuf ({@link WatchEncoding#PROTOBUF}): each event is its length (4 bytes, big-endian)
   * followed by that many bytes, so boundaries are found by reading the lengths.
   *
   * <p>JSON event boundaries: each event is one line, {@code {"type":..,"object":..}} ending with
   * {@code '\n'}, and a newline occurs nowhere else (the JSON is compact and escapes newlines
   * in strings). Each part lies within one event, so an event ends exactly where a part ends
   * with {@code '\n'}: a transport that sends one message per event (WebSocket) finds the
   * boundaries by looking at one byte per part, without scanning or re-encoding the events. A
   * transport that streams bytes (a chunked body, an HTTP/2 stream) writes the parts as they are.
   */
  void write(byte[][] parts);

  /** Flushes what was written. */
  void flush();

  /** Ends the response normally (timeout reached, or the server is shutting down). */
  void end();

  /** Drops the connection without a proper end (the watcher fell too far behind). */
  void abort();
}

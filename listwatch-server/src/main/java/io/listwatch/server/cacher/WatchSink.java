package io.listwatch.server.cacher;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;

/**
 * Where a {@link CacheWatcher} writes: one watch response on one transport (an HTTP/1.1
 * chunked body, an HTTP/2 stream, a WebSocket). Every transport implements this, so the
 * fan-out path is the same for all of them.
 *
 * <p>All methods except {@link #executor()} are called on {@link #executor()} only.
 */
public interface WatchSink {

  /** The event loop that owns the connection; the watcher drains its queue there. */
  EventExecutor executor();

  /** How this watch's events are written; fixed for the watch's life. */
  default WatchEncoding encoding() {
    return WatchEncoding.JSON;
  }

  /** False while the connection's outbound buffer is over its high-water mark. */
  boolean isWritable();

  /**
   * Writes whole events (one buffer may hold many); takes ownership of {@code data}.
   *
   * <p>Protobuf ({@link WatchEncoding#PROTOBUF}): each event is its length (4 bytes, big-endian)
   * followed by that many bytes, so boundaries are found by reading the lengths.
   *
   * <p>JSON event boundaries: each event is one line, {@code {"type":..,"object":..}} ending with
   * {@code '\n'}, and a newline occurs nowhere else (the JSON is compact and escapes newlines
   * in strings). When {@code data} is a {@link io.netty.buffer.CompositeByteBuf}, each of its
   * components lies within one event, so an event ends exactly where a component ends with
   * {@code '\n'}: a transport that sends one message per event (WebSocket) finds the
   * boundaries by looking at one byte per component, and slices the shared bytes instead of
   * copying or re-encoding them. A transport that streams bytes (a chunked body, an HTTP/2
   * stream) writes {@code data} as it is. Any other buffer is small (a bookmark or an error
   * event) and may be scanned for newlines.
   */
  void write(ByteBuf data);

  /** Flushes what was written. */
  void flush();

  /** Ends the response normally (timeout reached, or the server is shutting down). */
  void end();

  /** Drops the connection without a proper end (the watcher fell too far behind). */
  void abort();
}

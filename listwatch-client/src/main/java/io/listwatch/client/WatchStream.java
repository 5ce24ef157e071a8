package io.listwatch.client;

import java.io.IOException;
import java.util.Optional;

/**
 * One open watch: events in the order the server sent them, read by one thread.
 *
 * <p>Not thread-safe for reading: one consumer calls {@link #next()}. {@link #close()} may be
 * called from any thread, at any time, any number of times; it makes a blocked
 * {@link #next()} return empty (or throw) promptly.
 *
 * @param <T> the object type
 */
public interface WatchStream<T> extends AutoCloseable {

  /**
   * Blocks until the next event arrives.
   *
   * @return the event, or empty when the server ended the stream normally (its timeout) or
   *     the stream was closed
   * @throws IOException when the connection fails or the stream is malformed
   */
  Optional<WatchEvent<T>> next() throws IOException;

  /** Ends the watch and releases its connection or stream. Idempotent. */
  @Override
  void close();
}

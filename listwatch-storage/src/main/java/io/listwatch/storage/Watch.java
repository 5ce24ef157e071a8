package io.listwatch.storage;

/**
 * A running watch, returned by {@link Storage#watch}. Thread-safe.
 */
public interface Watch extends AutoCloseable {

  /**
   * Asks for a progress notification: once every event up to the store's current revision
   * has been delivered, the listener's {@link WatchListener#onProgress} is called with that
   * revision. This lets a cache of a quiet prefix learn that it is up to date (etcd's
   * {@code RequestProgress}).
   */
  void requestProgress();

  /** Stops delivery. No listener call starts after close returns. Idempotent. */
  @Override
  void close();
}

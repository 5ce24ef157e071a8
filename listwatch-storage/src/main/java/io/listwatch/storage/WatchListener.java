package io.listwatch.storage;

import java.util.List;

/**
 * Receives the changes of a {@link Storage#watch}.
 *
 * <p>Contract: calls for one watch are made from one thread at a time, in revision order;
 * every change under the prefix with a revision after the watch's start revision is
 * delivered exactly once, with no gaps, until the watch is closed or fails. A call may carry
 * many events (all in ascending revision order; a batch never splits one revision). After
 * {@link #onError} no other call is made. The listener should return quickly; an
 * implementation may fall back to reading history for a listener that lags, but never
 * blocks writers on it.
 */
public interface WatchListener {

  /** The next changes, in ascending revision order. The list is immutable. */
  void onEvents(List<WatchEvent> events);

  /**
   * Every change up to and including {@code revision} has been delivered; sent in answer to
   * {@link Watch#requestProgress()}. The default ignores it.
   */
  default void onProgress(long revision) {
  }

  /**
   * The watch failed and is over: {@link StorageException.Code#COMPACTED} when history it
   * needed is gone (the caller must re-read the current state and watch again),
   * {@link StorageException.Code#UNAVAILABLE} when the store closed or broke.
   */
  void onError(StorageException error);
}

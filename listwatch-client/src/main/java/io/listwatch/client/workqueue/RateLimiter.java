package io.listwatch.client.workqueue;

import java.time.Duration;

/**
 * Decides how long an item waits before it is retried (client-go's
 * {@code workqueue.TypedRateLimiter}). Per-item limiters count failures between
 * {@link #when} and {@link #forget}; overall limiters ({@link RateLimiters#bucket}) ignore
 * the item. Create them with {@link RateLimiters}.
 *
 * <p>Implementations are thread-safe and never block.
 *
 * @param <T> the item type; items are hash keys, as in {@link WorkQueue}
 */
public interface RateLimiter<T> {

  /**
   * How long {@code item} should wait before it is processed again; counts one more requeue
   * (failure) of it. Never negative.
   */
  Duration when(T item);

  /** Stops tracking {@code item} (it succeeded): its failure count goes back to zero. */
  void forget(T item);

  /** How many times {@link #when} was asked about {@code item} since it was last forgotten. */
  int numRequeues(T item);
}

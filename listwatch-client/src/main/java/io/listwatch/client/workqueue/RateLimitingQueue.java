package io.listwatch.client.workqueue;

import java.util.Objects;

/**
 * A {@link DelayingQueue} that delays retries by a {@link RateLimiter} (client-go's
 * {@code workqueue.TypedRateLimitingInterface}). The usual worker loop: on success
 * {@link #forget} the item, on failure {@link #addRateLimited} it; {@link #done} it in both
 * cases.
 *
 * <p>Everything {@link DelayingQueue} promises holds. Thread-safe.
 *
 * @param <T> the item type
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

  /**
   * Adds {@code item} after the delay the rate limiter gives it
   * ({@code addAfter(item, limiter.when(item))}); this counts one more requeue of the item.
   */
  void addRateLimited(T item);

  /**
   * Tells the rate limiter the item is done with (succeeded): its failure count is reset.
   * Does not remove the item from the queue; it still has to be {@link #done}.
   */
  void forget(T item);

  /** How many times the rate limiter has delayed {@code item} since it was last forgotten. */
  int numRequeues(T item);

  /**
   * A builder: {@code RateLimitingQueue.builder(RateLimiters.<String>defaultControllerRateLimiter())
   * .name("deployments").build()}.
   */
  static <T> Builder<T> builder(RateLimiter<T> rateLimiter) {
    return new Builder<>(Objects.requireNonNull(rateLimiter, "rateLimiter"));
  }

  /** Builds a {@link RateLimitingQueue}. Not thread-safe; build once, then share the queue. */
  final class Builder<T> extends QueueBuilder<Builder<T>> {
    private final RateLimiter<T> rateLimiter;

    Builder(RateLimiter<T> rateLimiter) {
      this.rateLimiter = rateLimiter;
    }

    public RateLimitingQueue<T> build() {
      return new DefaultRateLimitingQueue<>(
          new DefaultDelayingQueue<>(new DefaultWorkQueue<>(name, clock), clock), rateLimiter);
    }
  }
}

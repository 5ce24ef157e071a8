package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.List;

/**
 * The strictest of several limiters (client-go's {@code MaxOfRateLimiter}): every limiter is
 * asked (so each one counts the failure), and the longest delay wins; the requeue count is
 * the largest; forget forgets in all of them.
 *
 * <p>Thread-safe as its limiters are; holds no state of its own.
 */
final class MaxOfRateLimiter<T> implements RateLimiter<T> {

  private final List<RateLimiter<T>> limiters;

  MaxOfRateLimiter(List<RateLimiter<T>> limiters) {
    if (limiters.isEmpty()) {
      throw new IllegalArgumentException("maxOf needs at least one rate limiter");
    }
    this.limiters = List.copyOf(limiters);
  }

  @Override
  public Duration when(T item) {
    Duration longest = Duration.ZERO;
    for (RateLimiter<T> limiter : limiters) {
      Duration delay = limiter.when(item);
      if (delay.compareTo(longest) > 0) {
        longest = delay;
      }
    }
    return longest;
  }

  @Override
  public void forget(T item) {
    for (RateLimiter<T> limiter : limiters) {
      limiter.forget(item);
    }
  }

  @Override
  public int numRequeues(T item) {
    int most = 0;
    for (RateLimiter<T> limiter : limiters) {
      most = Math.max(most, limiter.numRequeues(item));
    }
    return most;
  }
}

package io.listwatch.client.workqueue;

import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Factories for the {@link RateLimiter}s of client-go's workqueue. Every limiter returned is
 * thread-safe. Bad arguments throw {@link IllegalArgumentException}.
 */
public final class RateLimiters {

  private RateLimiters() {}

  /**
   * Per-item exponential backoff: the n-th failure in a row waits {@code baseDelay ·
   * 2^(n-1)}, at most {@code maxDelay} (client-go's
   * {@code NewTypedItemExponentialFailureRateLimiter}).
   */
  public static <T> RateLimiter<T> itemExponentialFailure(Duration baseDelay, Duration maxDelay) {
    return new ItemExponentialFailureRateLimiter<>(baseDelay, maxDelay);
  }

  /**
   * An overall token bucket of {@code burst} tokens refilled at {@code qps} per second,
   * starting full; delays are measured on {@code clock} (client-go's
   * {@code TypedBucketRateLimiter}).
   */
  public static <T> RateLimiter<T> bucket(double qps, int burst, Clock clock) {
    return new BucketRateLimiter<>(qps, burst, clock);
  }

  /**
   * Per item: {@code fastDelay} for the first {@code maxFastAttempts} failures in a row, then
   * {@code slowDelay} (client-go's {@code NewTypedItemFastSlowRateLimiter}).
   */
  public static <T> RateLimiter<T> itemFastSlow(
      Duration fastDelay, Duration slowDelay, int maxFastAttempts) {
    return new ItemFastSlowRateLimiter<>(fastDelay, slowDelay, maxFastAttempts);
  }

  /**
   * The longest delay of all {@code limiters}, each of which counts every failure (client-go's
   * {@code NewTypedMaxOfRateLimiter}).
   */
  @SafeVarargs
  public static <T> RateLimiter<T> maxOf(RateLimiter<T>... limiters) {
    for (RateLimiter<T> limiter : limiters) {
      Objects.requireNonNull(limiter, "limiter");
    }
    return new MaxOfRateLimiter<>(List.of(limiters));
  }

  /**
   * client-go's {@code DefaultTypedControllerRateLimiter}: the larger of per-item exponential
   * backoff from 5 ms to 1000 s and an overall bucket of 10 qps with a burst of 100, timed
   * by {@code clock}.
   */
  public static <T> RateLimiter<T> defaultControllerRateLimiter(Clock clock) {
    return maxOf(
        itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)),
        bucket(10, 100, clock));
  }

  /** {@link #defaultControllerRateLimiter(Clock)} on the system clock. */
  public static <T> RateLimiter<T> defaultControllerRateLimiter() {
    return defaultControllerRateLimiter(Clock.system());
  }

  /**
   * client-go's {@code DefaultTypedItemBasedRateLimiter}: per-item exponential backoff from
   * 1 ms to 1000 s, with no overall limit.
   */
  public static <T> RateLimiter<T> defaultItemBasedRateLimiter() {
    return itemExponentialFailure(Duration.ofMillis(1), Duration.ofSeconds(1000));
  }
}

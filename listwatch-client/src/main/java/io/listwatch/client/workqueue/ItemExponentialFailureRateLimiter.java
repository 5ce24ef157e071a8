package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Per-item exponential backoff (client-go's {@code ItemExponentialFailureRateLimiter}): the
 * n-th failure of an item in a row waits {@code base · 2^(n-1)}, capped at {@code max}. The
 * arithmetic cannot overflow: past the cap (or past 2^62) it answers {@code max}.
 *
 * <p>Thread-safe: {@link #failures} is guarded by {@code this}.
 */
final class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {

  private final long baseNanos;
  private final long maxNanos;
  /** Failures in a row per item, since it was last forgotten. Guarded by this. */
  private final Map<T, Integer> failures = new HashMap<>();

  ItemExponentialFailureRateLimiter(Duration baseDelay, Duration maxDelay) {
    this.baseNanos = Nanos.requireNonNegative(baseDelay, "baseDelay");
    this.maxNanos = Nanos.requireNonNegative(maxDelay, "maxDelay");
    if (maxNanos < baseNanos) {
      throw new IllegalArgumentException(
          "maxDelay " + maxDelay + " must not be less than baseDelay " + baseDelay);
    }
  }

  @Override
  public Duration when(T item) {
    Objects.requireNonNull(item, "item");
    int exponent;
    synchronized (this) {
      exponent = failures.getOrDefault(item, 0);
      failures.put(item, exponent == Integer.MAX_VALUE ? exponent : exponent + 1);
    }
    return Duration.ofNanos(backoff(exponent));
  }

  /** {@code min(base · 2^exponent, max)} without overflow. */
  private long backoff(int exponent) {
    if (baseNanos == 0) {
      return 0;
    }
    // base · 2^e <= max  iff  base <= floor(max / 2^e), for integers.
    if (exponent >= Long.SIZE - 1 || baseNanos > (maxNanos >> exponent)) {
      return maxNanos;
    }
    return baseNanos << exponent;
  }

  @Override
  public synchronized void forget(T item) {
    failures.remove(item);
  }

  @Override
  public synchronized int numRequeues(T item) {
    return failures.getOrDefault(item, 0);
  }
}

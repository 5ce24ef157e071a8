package io.listwatch.client.workqueue;

import java.time.Duration;

/**
 * Per-item exponential backoff (client-go's {@code ItemExponentialFailureRateLimiter}): the
 * n-th failure of an item in a row waits {@code base · 2^(n-1)}, capped at {@code max}. The
 * arithmetic cannot overflow: past the cap (or past 2^62) it answers {@code max}.
 *
 * <p>Thread-safe: its only state is a {@link FailureCounts}.
 */
final class ItemExponentialFailureRateLimiter<T> extends PerItemRateLimiter<T> {

  private final long baseNanos;
  private final long maxNanos;

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
    return Duration.ofNanos(backoff(failures.increment(item) - 1));
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
}

package io.listwatch.client.workqueue;

import java.time.Duration;

/**
 * Retries an item quickly a few times, then slowly (client-go's
 * {@code ItemFastSlowRateLimiter}): failures 1..{@code maxFastAttempts} wait
 * {@code fastDelay}, later ones {@code slowDelay}, until the item is forgotten.
 *
 * <p>Thread-safe: its only state is a {@link FailureCounts}.
 */
final class ItemFastSlowRateLimiter<T> extends PerItemRateLimiter<T> {

  private final Duration fastDelay;
  private final Duration slowDelay;
  private final int maxFastAttempts;

  ItemFastSlowRateLimiter(Duration fastDelay, Duration slowDelay, int maxFastAttempts) {
    Nanos.requireNonNegative(fastDelay, "fastDelay");
    Nanos.requireNonNegative(slowDelay, "slowDelay");
    if (maxFastAttempts < 0) {
      throw new IllegalArgumentException("maxFastAttempts must not be negative: " + maxFastAttempts);
    }
    this.fastDelay = fastDelay;
    this.slowDelay = slowDelay;
    this.maxFastAttempts = maxFastAttempts;
  }

  @Override
  public Duration when(T item) {
    return failures.increment(item) <= maxFastAttempts ? fastDelay : slowDelay;
  }
}

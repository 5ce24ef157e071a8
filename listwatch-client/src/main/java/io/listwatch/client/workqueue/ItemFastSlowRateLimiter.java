package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Retries an item quickly a few times, then slowly (client-go's
 * {@code ItemFastSlowRateLimiter}): failures 1..{@code maxFastAttempts} wait
 * {@code fastDelay}, later ones {@code slowDelay}, until the item is forgotten.
 *
 * <p>Thread-safe: {@link #failures} is guarded by {@code this}.
 */
final class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {

  private final Duration fastDelay;
  private final Duration slowDelay;
  private final int maxFastAttempts;
  /** Failures in a row per item, since it was last forgotten. Guarded by this. */
  private final Map<T, Integer> failures = new HashMap<>();

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
    Objects.requireNonNull(item, "item");
    int attempt;
    synchronized (this) {
      attempt = failures.merge(item, 1, (a, b) -> a == Integer.MAX_VALUE ? a : a + b);
    }
    return attempt <= maxFastAttempts ? fastDelay : slowDelay;
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

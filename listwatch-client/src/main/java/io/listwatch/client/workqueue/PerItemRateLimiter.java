package io.listwatch.client.workqueue;

/**
 * A rate limiter whose delay depends on how often each item failed in a row (client-go's
 * per-item limiters): it counts failures per item in a {@link FailureCounts}, which
 * {@link #forget} clears; the subclass turns the count into a delay in {@link #when}.
 * Thread-safe: its only state is the counts.
 */
abstract class PerItemRateLimiter<T> implements RateLimiter<T> {

  /** Failures in a row per item; {@link #when} increments them. */
  final FailureCounts<T> failures = new FailureCounts<>();

  @Override
  public void forget(T item) {
    failures.forget(item);
  }

  @Override
  public int numRequeues(T item) {
    return failures.get(item);
  }
}

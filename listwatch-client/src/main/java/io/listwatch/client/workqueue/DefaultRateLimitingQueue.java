package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@link RateLimitingQueue} (client-go's {@code rateLimitingType}): a
 * {@link DelayingQueue} and a {@link RateLimiter}, both thread-safe, so this is too.
 */
final class DefaultRateLimitingQueue<T> extends ForwardingWorkQueue<T, DelayingQueue<T>>
    implements RateLimitingQueue<T> {

  private final RateLimiter<T> rateLimiter;

  DefaultRateLimitingQueue(DelayingQueue<T> queue, RateLimiter<T> rateLimiter) {
    super(queue);
    this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
  }

  @Override
  public void addRateLimited(T item) {
    Objects.requireNonNull(item, "item");
    queue.addAfter(item, rateLimiter.when(item));
  }

  @Override
  public void forget(T item) {
    rateLimiter.forget(Objects.requireNonNull(item, "item"));
  }

  @Override
  public int numRequeues(T item) {
    return rateLimiter.numRequeues(Objects.requireNonNull(item, "item"));
  }

  @Override
  public void addAfter(T item, Duration delay) {
    queue.addAfter(item, delay);
  }

  @Override
  public String toString() {
    return "RateLimitingQueue[" + queue.name() + "]";
  }
}

package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link RateLimitingQueue} (client-go's {@code rateLimitingType}): a
 * {@link DelayingQueue} and a {@link RateLimiter}, both thread-safe, so this is too.
 */
final class DefaultRateLimitingQueue<T> implements RateLimitingQueue<T> {

  private final DelayingQueue<T> queue;
  private final RateLimiter<T> rateLimiter;

  DefaultRateLimitingQueue(DelayingQueue<T> queue, RateLimiter<T> rateLimiter) {
    this.queue = Objects.requireNonNull(queue, "queue");
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
  public void add(T item) {
    queue.add(item);
  }

  @Override
  public int len() {
    return queue.len();
  }

  @Override
  public Optional<T> get() throws InterruptedException {
    return queue.get();
  }

  @Override
  public void done(T item) {
    queue.done(item);
  }

  @Override
  public void shutDown() {
    queue.shutDown();
  }

  @Override
  public void shutDownWithDrain() throws InterruptedException {
    queue.shutDownWithDrain();
  }

  @Override
  public boolean isShuttingDown() {
    return queue.isShuttingDown();
  }

  @Override
  public String name() {
    return queue.name();
  }

  @Override
  public WorkQueueMetrics metrics() {
    return queue.metrics();
  }

  @Override
  public String toString() {
    return "RateLimitingQueue[" + queue.name() + "]";
  }
}

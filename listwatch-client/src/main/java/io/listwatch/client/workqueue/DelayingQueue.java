package io.listwatch.client.workqueue;

import io.listwatch.api.clock.Clock;
import java.time.Duration;

/**
 * A {@link WorkQueue} that can also add an item later (client-go's
 * {@code workqueue.TypedDelayingInterface}).
 *
 * <h2>Contract</h2>
 *
 * Everything {@link WorkQueue} promises, and:
 *
 * <ul>
 *   <li>{@link #addAfter} with a zero or negative delay is {@link #add}.
 *   <li>Otherwise the item waits, outside the queue, until the queue's clock reaches its
 *       ready time, and is then {@link #add}ed (so dedup and one-worker-per-item apply as
 *       usual). While waiting it is not counted by {@link #len}.
 *   <li>An item waits at most once: a later {@link #addAfter} with an earlier ready time
 *       moves it earlier; one with a later or equal ready time changes nothing.
 *   <li>Items whose ready times pass together are added in ready-time order.
 *   <li>Shutting down drops every waiting item and cancels its timer.
 *   <li>Timers run on the clock ({@link Clock#schedule}); the system clock runs them on its
 *       shared {@code listwatch-clock} thread, so the queue owns no thread.
 *   <li>Thread-safe.
 * </ul>
 *
 * @param <T> the item type
 */
public interface DelayingQueue<T> extends WorkQueue<T> {

  /**
   * Adds {@code item} once {@code delay} has passed on the queue's clock (now if the delay
   * is zero or negative). Ignored once the queue is shutting down. Counts as a retry in
   * the metrics.
   */
  void addAfter(T item, Duration delay);

  /** A builder: {@code DelayingQueue.<String>builder().name("pods").clock(clock).build()}. */
  static <T> Builder<T> builder() {
    return new Builder<>();
  }

  /** Builds a {@link DelayingQueue}. Not thread-safe; build once, then share the queue. */
  final class Builder<T> extends QueueBuilder<Builder<T>> {

    Builder() {}

    public DelayingQueue<T> build() {
      return new DefaultDelayingQueue<>(new DefaultWorkQueue<>(name, clock), clock);
    }
  }
}

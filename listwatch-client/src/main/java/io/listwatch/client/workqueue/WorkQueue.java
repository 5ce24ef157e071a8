package io.listwatch.client.workqueue;

import java.util.Optional;

/**
 * A queue of work items for controllers (client-go's {@code workqueue.TypedInterface}).
 * Event handlers {@link #add} keys; worker threads loop on {@link #get}, process the item,
 * and always call {@link #done} afterwards (in a {@code finally}).
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Items are keys.</b> Items are compared with {@code equals}/{@code hashCode} and
 *       held in hash maps, so they must be immutable values (typically a
 *       {@code namespace/name} string). {@code null} is rejected with a
 *       {@link NullPointerException}.
 *   <li><b>Dedup.</b> An item is queued at most once: adding an item that is already queued
 *       (added and not yet handed out by {@link #get}) does nothing and keeps its place.
 *   <li><b>One worker per item.</b> From {@link #get} until {@link #done} an item is
 *       <em>processing</em>. Adding it meanwhile marks it <em>dirty</em>: it is not handed to
 *       another worker, and {@link #done} queues it again (at the back). So no item is
 *       processed by two workers at once, and no add during processing is lost.
 *   <li><b>Order.</b> Items are handed out first in, first out, by the time they were queued
 *       (an item re-queued by {@link #done} counts as queued at that moment).
 *   <li><b>Fairness.</b> Workers blocked in {@link #get} are served in the order they started
 *       waiting; the lock is fair, so a busy worker cannot starve a waiting one.
 *   <li><b>Shutdown.</b> After {@link #shutDown} or {@link #shutDownWithDrain} every later
 *       add is ignored. {@link #get} keeps handing out the items still queued (including
 *       ones {@link #done} re-queues), and once the queue is empty returns
 *       {@link Optional#empty()} at once to every caller: that is the workers' signal to
 *       exit. Items being processed must still be {@link #done}.
 *   <li><b>Thread-safety.</b> Thread-safe: any thread may call any method. No method calls
 *       user code.
 * </ul>
 *
 * @param <T> the item type
 */
public interface WorkQueue<T> {

  /**
   * Queues {@code item} unless it is already queued, or marks it dirty if it is being
   * processed. Ignored once the queue is shutting down. Never blocks for long.
   */
  void add(T item);

  /** How many items are queued, waiting for a worker (not counting items being processed). */
  int len();

  /**
   * Blocks until an item is queued, removes it and marks it processing; the caller must
   * call {@link #done} with it. Returns {@link Optional#empty()} once the queue is shutting
   * down and no item is queued (client-go's {@code shutdown == true}).
   *
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  Optional<T> get() throws InterruptedException;

  /**
   * Marks {@code item} as no longer processing. If it was added while it was being
   * processed, it is queued again now.
   *
   * @throws IllegalStateException if {@code item} is not being processed (not handed out by
   *     {@link #get}, or already done)
   */
  void done(T item);

  /**
   * Starts shutting down: later adds are ignored, waiting workers are woken, and {@link #get}
   * returns empty once no item is queued. Does not wait. Idempotent; also releases a
   * {@link #shutDownWithDrain} that is waiting.
   */
  void shutDown();

  /**
   * Like {@link #shutDown}, then waits until no item is being processed, i.e. every item
   * handed out by {@link #get} has been {@link #done}. Items still queued are handed out by
   * {@link #get} as usual but are not waited for; join the workers for that. Blocks forever
   * if an item is never done, unless {@link #shutDown} is called meanwhile.
   *
   * @throws InterruptedException if interrupted while waiting (the queue stays shut down)
   */
  void shutDownWithDrain() throws InterruptedException;

  /** Whether {@link #shutDown} or {@link #shutDownWithDrain} has been called. */
  boolean isShuttingDown();

  /** The queue's name, used in logs and metrics. */
  String name();

  /** A snapshot of the queue's metrics. Cheap: O(items being processed). */
  WorkQueueMetrics metrics();

  /** A builder for a plain work queue: {@code WorkQueue.<String>builder().name("pods").build()}. */
  static <T> Builder<T> builder() {
    return new Builder<>();
  }

  /** Builds a {@link WorkQueue}. Not thread-safe; build once, then share the queue. */
  final class Builder<T> extends QueueBuilder<Builder<T>> {

    Builder() {}

    public WorkQueue<T> build() {
      return new DefaultWorkQueue<>(name, clock);
    }
  }
}

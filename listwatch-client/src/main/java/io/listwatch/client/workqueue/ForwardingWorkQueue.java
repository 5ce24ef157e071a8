package io.listwatch.client.workqueue;

import java.util.Optional;

/**
 * A queue that adds to the one it wraps and forwards every {@link WorkQueue} call to it, as
 * client-go's delaying and rate-limiting queues embed the queue below them. Subclasses add
 * their own methods and override what they extend (a delaying queue stops its timers on
 * shutdown). As thread-safe as the wrapped queue and the subclass's own state.
 *
 * @param <Q> the wrapped queue
 */
abstract class ForwardingWorkQueue<T, Q extends WorkQueue<T>> implements WorkQueue<T> {

  /** The queue below; every forwarded call goes to it. */
  final Q queue;

  ForwardingWorkQueue(Q queue) {
    this.queue = java.util.Objects.requireNonNull(queue, "queue");
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
}

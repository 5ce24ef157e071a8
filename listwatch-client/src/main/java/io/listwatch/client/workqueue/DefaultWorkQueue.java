package io.listwatch.client.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link WorkQueue} (client-go's {@code workqueue.Typed}).
 *
 * <h2>Design</h2>
 *
 * Three collections under one lock, with the invariant <em>an item is in {@link #queue} iff
 * it is in {@link #dirty} and not in {@link #processing}</em>, and the queue holds no
 * duplicates. {@code add} puts an item in {@code dirty} and, unless it is processing, at the
 * back of {@code queue}; {@code get} moves it from {@code queue}/{@code dirty} to
 * {@code processing}; {@code done} removes it from {@code processing} and, if it became dirty
 * meanwhile, queues it again.
 *
 * <p>Concurrency: every method takes {@link #lock}, which is fair; workers wait on
 * {@link #itemsAvailable}, which is signalled once per queued item, so waiting workers are
 * woken one per item in the order they started waiting. The metrics live under the same
 * lock. The clock is read under the lock (lock order: this queue, then the clock); nothing
 * else is called under it.
 *
 * <p>Thread-safe.
 */
final class DefaultWorkQueue<T> implements WorkQueue<T> {

  private static final Logger log = LoggerFactory.getLogger(DefaultWorkQueue.class);

  private final String name;
  private final Clock clock;

  /** Guards every field below. Fair, so waiting workers are served in arrival order. */
  private final ReentrantLock lock = new ReentrantLock(true);
  /** Signalled once per item put in {@link #queue}; all on shutdown. */
  private final Condition itemsAvailable = lock.newCondition();
  /** Signalled when {@link #processing} becomes empty, and on {@link #shutDown}. */
  private final Condition processingEmpty = lock.newCondition();

  /** Items waiting for a worker, first in first out, no duplicates. */
  @GuardedBy("lock")
  private final ArrayDeque<T> queue = new ArrayDeque<>();
  /**
   * Items that need processing: every queued item, and every item added while processing.
   * Value: clock nanos when it became dirty (for queue latency).
   */
  @GuardedBy("lock")
  private final Map<T, Long> dirty = new HashMap<>();
  /**
   * Items handed out by {@code get} and not yet done. Value: clock nanos when handed out (for
   * work duration).
   */
  @GuardedBy("lock")
  private final Map<T, Long> processing = new HashMap<>();
  /** Set once by a shutdown, never cleared. */
  @GuardedBy("lock")
  private boolean shuttingDown;
  /** A {@link #shutDownWithDrain} is waiting; cleared by {@link #shutDown}. */
  @GuardedBy("lock")
  private boolean draining;
  @GuardedBy("lock")
  private final QueueMetrics metrics = new QueueMetrics();

  DefaultWorkQueue(String name, Clock clock) {
    this.name = QueueNames.require(name);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void add(T item) {
    Objects.requireNonNull(item, "item");
    lock.lock();
    try {
      if (shuttingDown || dirty.containsKey(item)) {
        return;
      }
      dirty.put(item, clock.nanoTime());
      metrics.added();
      if (processing.containsKey(item)) {
        return; // done() queues it
      }
      enqueue(item);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int len() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<T> get() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() && !shuttingDown) {
        itemsAvailable.await();
      }
      return handOut(); // empty only when shut down and nothing queued
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@link #get} without waiting: the first queued item, now processing, or empty if none is
   * queued. For the model checks, whose operations must not block.
   */
  Optional<T> poll() {
    lock.lock();
    try {
      return handOut();
    } finally {
      lock.unlock();
    }
  }

  /** Moves the first queued item to {@link #processing}; empty if none is queued. */
  @GuardedBy("lock")
  private Optional<T> handOut() {
    T item = queue.pollFirst();
    if (item == null) {
      return Optional.empty();
    }
    long now = clock.nanoTime();
    metrics.handedOut(now - dirty.remove(item));
    processing.put(item, now);
    return Optional.of(item);
  }

  @Override
  public void done(T item) {
    Objects.requireNonNull(item, "item");
    lock.lock();
    try {
      Long startedAt = processing.remove(item);
      if (startedAt == null) {
        throw new IllegalStateException(
            this + ": done(" + item + ") but the item is not being processed");
      }
      metrics.done(clock.nanoTime() - startedAt);
      if (dirty.containsKey(item)) {
        enqueue(item);
      }
      if (processing.isEmpty()) {
        processingEmpty.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDown() {
    lock.lock();
    try {
      if (!shuttingDown) {
        log.debug("{}: shutting down, {} queued, {} processing", this, queue.size(), processing.size());
      }
      shuttingDown = true;
      draining = false;
      itemsAvailable.signalAll();
      processingEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDownWithDrain() throws InterruptedException {
    lock.lock();
    try {
      log.debug("{}: shutting down, draining {} processing", this, processing.size());
      shuttingDown = true;
      draining = true;
      itemsAvailable.signalAll();
      while (draining && !processing.isEmpty()) {
        processingEmpty.await();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isShuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public WorkQueueMetrics metrics() {
    lock.lock();
    try {
      long now = clock.nanoTime();
      long longest = 0;
      long unfinished = 0;
      for (long startedAt : processing.values()) {
        long running = Math.max(0, now - startedAt);
        longest = Math.max(longest, running);
        unfinished = Nanos.saturatedAdd(unfinished, running);
      }
      return metrics.snapshot(name, queue.size(), longest, unfinished);
    } finally {
      lock.unlock();
    }
  }

  /** Counts one {@link DelayingQueue#addAfter}. */
  void recordRetry() {
    lock.lock();
    try {
      metrics.retried();
    } finally {
      lock.unlock();
    }
  }

  /** How many workers are blocked in {@link #get}; for tests. */
  int waitingWorkers() {
    lock.lock();
    try {
      return lock.getWaitQueueLength(itemsAvailable);
    } finally {
      lock.unlock();
    }
  }

  /** Whether a {@link #shutDownWithDrain} is blocked waiting; for tests. */
  boolean drainWaiting() {
    lock.lock();
    try {
      return lock.hasWaiters(processingEmpty);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "WorkQueue[" + name + "]";
  }

  @GuardedBy("lock")
  private void enqueue(T item) {
    assert lock.isHeldByCurrentThread();
    queue.addLast(item);
    itemsAvailable.signal();
  }
}

package io.listwatch.client.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link DelayingQueue} (client-go's {@code delayingType}): a {@link DefaultWorkQueue}
 * plus the items waiting for their ready time.
 *
 * <h2>Design</h2>
 *
 * client-go keeps waiting items in a heap served by one goroutine. Here each waiting item
 * has one timer on the {@link Clock} ({@link Clock#schedule}), and {@link #waiting} maps the
 * item to its entry, so an earlier {@code addAfter} cancels the later timer and a later one
 * is ignored. A timer that fires checks that its entry is still the current one (it may have
 * been replaced or dropped by shutdown while it was starting) and then adds the item to the
 * work queue. The clock runs due timers in due order, which gives ready-time order.
 *
 * <p>Concurrency: {@link #lock} guards {@link #waiting} and {@link #stopped}; it is held
 * while scheduling and cancelling timers (lock order: this lock, then the clock's), never
 * while calling the work queue, and a firing timer takes it only after the clock has
 * released its own. Thread-safe.
 */
final class DefaultDelayingQueue<T> extends ForwardingWorkQueue<T, DefaultWorkQueue<T>> implements DelayingQueue<T> {

  private final Clock clock;

  private final ReentrantLock lock = new ReentrantLock();
  /** Items waiting for their ready time, each with its one live timer. */
  @GuardedBy("lock")
  private final Map<T, Waiting> waiting = new HashMap<>();
  /** Set by shutdown; no timer is scheduled after it. */
  @GuardedBy("lock")
  private boolean stopped;

  DefaultDelayingQueue(DefaultWorkQueue<T> queue, Clock clock) {
    super(queue);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void addAfter(T item, Duration delay) {
    Objects.requireNonNull(item, "item");
    Objects.requireNonNull(delay, "delay");
    if (queue.isShuttingDown()) {
      return;
    }
    queue.recordRetry();
    long delayNanos = Nanos.delayOf(delay);
    if (delayNanos == 0) {
      queue.add(item);
      return;
    }
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      long readyAt = clock.nanoTime() + delayNanos;
      Waiting current = waiting.get(item);
      if (current != null) {
        if (current.readyAt - readyAt <= 0) {
          return; // already due no later than this
        }
        current.timer.cancel();
      }
      Waiting entry = new Waiting(readyAt);
      waiting.put(item, entry);
      // at readyAt itself: a delay would be counted from a second reading of the clock, later
      // than the first, and an addAfter that moves the item earlier could lose by the gap
      entry.timer = clock.scheduleAt(readyAt, () -> ready(item, entry));
    } finally {
      lock.unlock();
    }
  }

  /** Runs on the clock's thread when {@code entry}'s time has come. */
  private void ready(T item, Waiting entry) {
    lock.lock();
    try {
      if (waiting.get(item) != entry) {
        return; // replaced by an earlier time, or dropped by shutdown
      }
      waiting.remove(item);
    } finally {
      lock.unlock();
    }
    queue.add(item);
  }

  /** Drops every waiting item and cancels its timer. */
  private void stopWaiting() {
    lock.lock();
    try {
      stopped = true;
      for (Waiting entry : waiting.values()) {
        entry.timer.cancel();
      }
      waiting.clear();
    } finally {
      lock.unlock();
    }
  }

  /** How many items wait for their ready time; for tests. */
  int waitingItems() {
    lock.lock();
    try {
      return waiting.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDown() {
    stopWaiting();
    queue.shutDown();
  }

  @Override
  public void shutDownWithDrain() throws InterruptedException {
    stopWaiting();
    queue.shutDownWithDrain();
  }

  @Override
  public String toString() {
    return "DelayingQueue[" + queue.name() + "]";
  }

  /** One waiting item's ready time and timer. Guarded by the queue's lock. */
  private static final class Waiting {
    final long readyAt;
    Clock.Cancellable timer;

    Waiting(long readyAt) {
      this.readyAt = readyAt;
    }
  }
}

package io.listwatch.api.clock;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A clock that moves only when a test calls {@link #advance}. Sleepers wake and scheduled
 * tasks run (on the advancing thread, in due order) when time reaches them.
 * {@link #awaitWaiters} lets a test wait, with a bound, until the code under test is
 * blocked on this clock, instead of sleeping.
 *
 * <p>Thread-safe. Scheduled tasks run outside the clock's lock.
 */
public final class FakeClock implements Clock {

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled whenever time moves or a waiter arrives. */
  @GuardedBy("lock")
  private final Condition changed = lock.newCondition();
  @GuardedBy("lock")
  private long nanos;
  @GuardedBy("lock")
  private final Instant epoch;
  /** Pending tasks by due time, then by order of scheduling. */
  @GuardedBy("lock")
  private final PriorityQueue<Task> tasks =
      new PriorityQueue<>(Comparator.comparingLong((Task t) -> t.due).thenComparingLong(t -> t.seq));
  /** Threads blocked in {@link #sleep}. */
  @GuardedBy("lock")
  private int sleepers;
  @GuardedBy("lock")
  private long seq;

  /** A clock starting at 2026-01-01T00:00:00Z. */
  public FakeClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  public FakeClock(Instant start) {
    this.epoch = start;
  }

  @Override
  public long nanoTime() {
    lock.lock();
    try {
      return nanos;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Instant now() {
    lock.lock();
    try {
      return epoch.plusNanos(nanos);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    lock.lock();
    try {
      long until = saturatedAdd(nanos, duration);
      if (nanos >= until) {
        return;
      }
      sleepers++;
      changed.signalAll();
      try {
        while (nanos < until) {
          changed.await();
        }
      } finally {
        sleepers--;
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    lock.lock();
    try {
      return scheduleAt(saturatedAdd(nanos, delay), task);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Cancellable scheduleAt(long atNanos, Runnable task) {
    lock.lock();
    try {
      Task t = new Task(atNanos, seq++, task);
      tasks.add(t);
      changed.signalAll();
      return () -> {
        lock.lock();
        try {
          return tasks.remove(t);
        } finally {
          lock.unlock();
        }
      };
    } finally {
      lock.unlock();
    }
  }

  /**
   * Moves time forward by {@code duration}, waking sleepers and running every task that
   * comes due, in due order (a task scheduled by a task runs too if it is due).
   */
  public void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("time does not go back: " + duration);
    }
    long target;
    lock.lock();
    try {
      target = nanos + duration.toNanos();
    } finally {
      lock.unlock();
    }
    while (true) {
      Task next;
      lock.lock();
      try {
        next = tasks.peek();
        if (next == null || next.due > target) {
          nanos = target;
          changed.signalAll();
          return;
        }
        tasks.poll();
        nanos = Math.max(nanos, next.due);
        changed.signalAll();
      } finally {
        lock.unlock();
      }
      next.task.run();
    }
  }

  /** How many tasks are scheduled and not yet run or cancelled. */
  public int pendingTasks() {
    lock.lock();
    try {
      return tasks.size();
    } finally {
      lock.unlock();
    }
  }

  /** When the earliest pending task is due, as an offset from now; null if none. */
  public Duration nextDue() {
    lock.lock();
    try {
      Task t = tasks.peek();
      return t == null ? null : Duration.ofNanos(t.due - nanos);
    } finally {
      lock.unlock();
    }
  }

  /** How many threads are blocked in {@link #sleep}. */
  public int sleepers() {
    lock.lock();
    try {
      return sleepers;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits (in real time, at most {@code timeout}) until at least {@code count} threads sleep
   * on this clock or tasks are pending, in total. Returns whether that happened.
   */
  public boolean awaitWaiters(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (sleepers + tasks.size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private static long saturatedAdd(long now, Duration delay) {
    long d;
    try {
      d = Math.max(0, delay.toNanos());
    } catch (ArithmeticException e) {
      d = delay.isNegative() ? 0 : Long.MAX_VALUE;
    }
    long sum = now + d;
    return sum < now ? Long.MAX_VALUE : sum;
  }

  private record Task(long due, long seq, Runnable task) {}
}

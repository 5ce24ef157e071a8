package io.listwatch.api.clock;

import java.time.Duration;
import java.time.Instant;

/**
 * A source of time that can also wait and schedule (client-go's {@code clock.Clock}).
 *
 * <p>Implementations are thread-safe.
 */
public interface Clock {

  /** A monotonic reading in nanoseconds, for measuring intervals. */
  long nanoTime();

  /** The wall-clock time. */
  Instant now();

  /**
   * Blocks the calling thread for {@code duration} of this clock's time. A fake clock
   * returns only when it has been advanced far enough.
   */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Runs {@code task} once after {@code delay}, on a thread of the clock's choosing (the
   * system clock uses one shared daemon thread: tasks must be short). Returns a handle
   * that cancels the task if it has not run yet.
   */
  Cancellable schedule(Duration delay, Runnable task);

  /**
   * Runs {@code task} once when this clock's {@link #nanoTime()} reaches {@code atNanos} (at
   * once if it already has), as {@link #schedule} does. A caller that computed a due time from
   * an earlier reading schedules it with this, not with the delay left at that reading: time
   * may pass between the reading and the call, and the task would run late by it. The
   * default asks {@link #schedule} for the delay left now; a fake clock runs the task exactly
   * at {@code atNanos}.
   */
  default Cancellable scheduleAt(long atNanos, Runnable task) {
    return schedule(Duration.ofNanos(Math.max(0, atNanos - nanoTime())), task);
  }

  /** The system clock. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }

  /** A scheduled task that can be cancelled. */
  @FunctionalInterface
  interface Cancellable {
    /** Cancels the task if it has not started; returns true if it was cancelled. */
    boolean cancel();
  }
}

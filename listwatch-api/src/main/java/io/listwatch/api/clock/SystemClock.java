package io.listwatch.api.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The real clock. Scheduled tasks run on one shared daemon thread named
 * {@code listwatch-clock}; cancelled tasks are removed at once so they hold no memory.
 * Thread-safe.
 */
final class SystemClock implements Clock {

  static final SystemClock INSTANCE = new SystemClock();

  private final ScheduledThreadPoolExecutor timer;

  private SystemClock() {
    timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "listwatch-clock");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (!duration.isNegative() && !duration.isZero()) {
      Thread.sleep(duration);
    }
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> future =
        timer.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }
}

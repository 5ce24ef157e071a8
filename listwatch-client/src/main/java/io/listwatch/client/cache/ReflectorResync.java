package io.listwatch.client.cache;

import io.listwatch.client.clock.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reflector's periodic resync: every {@code period} of clock time, while started, calls
 * {@link Store#resync()} if {@code shouldResync} says so (client-go's {@code resyncChan}
 * loop). One task is on the clock at a time; each run schedules the next.
 *
 * <p>Thread-safe. The clock's task only asks {@code shouldResync} (cheap) and schedules the
 * next check; {@link Store#resync()}, which walks the whole cache, runs on a virtual thread
 * of its own ({@code informer-<name>-resync}), never on the clock's shared thread. A resync
 * still running when the next comes due is not doubled: that check is skipped. The store
 * must be thread-safe.
 */
final class ReflectorResync {

  private static final Logger log = LoggerFactory.getLogger(Reflector.class);

  private final String name;
  private final Clock clock;
  private final Duration period;
  private final BooleanSupplier shouldResync;
  private final Store<?> store;
  private final Object lock = new Object();
  /** Between start() and stop(). Guarded by {@link #lock}. */
  private boolean running;
  /** The pending resync. Guarded by {@link #lock}. */
  private Clock.Cancellable task;
  /** Whether a resync thread is running. */
  private final java.util.concurrent.atomic.AtomicBoolean resyncing =
      new java.util.concurrent.atomic.AtomicBoolean();

  ReflectorResync(String name, Clock clock, Duration period, BooleanSupplier shouldResync,
      Store<?> store) {
    this.name = name;
    this.clock = clock;
    this.period = period;
    this.shouldResync = shouldResync;
    this.store = store;
  }

  /** Schedules the first resync one period from now; no-op for a zero period. */
  void start() {
    synchronized (lock) {
      running = true;
    }
    schedule();
  }

  /** Cancels the pending resync; none is scheduled after this returns. */
  void stop() {
    synchronized (lock) {
      running = false;
      if (task != null) {
        task.cancel();
        task = null;
      }
    }
  }

  private void schedule() {
    if (!period.isPositive()) {
      return;
    }
    synchronized (lock) {
      if (running) {
        task = clock.schedule(period, this::resync);
      }
    }
  }

  private void resync() {
    try {
      if (shouldResync.getAsBoolean() && resyncing.compareAndSet(false, true)) {
        Thread.ofVirtual().name(name + "-resync").start(this::runResync);
      }
    } catch (RuntimeException e) {
      log.warn("{}: resync check failed", name, e);
    }
    schedule();
  }

  private void runResync() {
    try {
      log.trace("{}: resync", name);
      store.resync();
    } catch (RuntimeException e) {
      log.warn("{}: resync failed", name, e);
    } finally {
      resyncing.set(false);
    }
  }
}

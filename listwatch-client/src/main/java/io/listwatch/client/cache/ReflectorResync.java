package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * of its own ({@code <name>-resync}, one at a time, in order), never on the clock's shared
 * thread. The store must be thread-safe.
 */
final class ReflectorResync {

  private static final Logger log = LoggerFactory.getLogger(Reflector.class);

  private final String name;
  private final Clock clock;
  private final Duration period;
  private final BooleanSupplier shouldResync;
  private final Store<?> store;
  private final Object lock = new Object();
  /** Between start() and stop(). */
  @GuardedBy("lock")
  private boolean running;
  /** The pending resync. */
  @GuardedBy("lock")
  private Clock.Cancellable task;
  /** Runs the resyncs, one at a time; created by start(). */
  @GuardedBy("lock")
  private ExecutorService worker;

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
      if (period.isPositive()) {
        worker = Executors.newSingleThreadExecutor(Thread.ofVirtual().name(name + "-resync").factory());
      }
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
      if (worker != null) {
        worker.shutdownNow(); // a resync under way finishes; none is started after this
        worker = null;
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
      if (shouldResync.getAsBoolean()) {
        synchronized (lock) {
          if (running) {
            worker.execute(this::runResync);
          }
        }
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
    }
  }
}

package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans an informer's notifications out to its {@link ProcessorListener}s (client-go's
 * {@code sharedProcessor}).
 *
 * <p>{@link #distribute} queues a notification on every listener, or, for a resync, only on
 * the listeners that {@link #shouldResync} found due; queueing never blocks, so the informer's
 * delta loop never waits for a handler. Listeners can be added and removed at any time; a
 * listener added while the processor runs starts at once.
 *
 * <p>Thread-safe: the listener set and the running state are guarded by {@link #lock}. Lock
 * order: the informer's delta lock, then this lock, then a listener's lock.
 *
 * @param <T> the object type
 */
final class SharedProcessor<T> {

  private static final Logger log = LoggerFactory.getLogger(SharedProcessor.class);

  private final String informerName;
  private final Clock clock;

  private final ReentrantLock lock = new ReentrantLock();
  /**
   * Each listener, in the order added, and whether the last {@link #shouldResync} found it
   * due (client-go's {@code listeners map[*processorListener]bool}).
   */
  @GuardedBy("lock")
  private final Map<ProcessorListener<T>, Boolean> listeners = new LinkedHashMap<>();
  /** Numbers listeners' threads. */
  @GuardedBy("lock")
  private int nextListenerNumber = 1;
  @GuardedBy("lock")
  private boolean running;
  @GuardedBy("lock")
  private boolean stopped;

  SharedProcessor(String informerName, Clock clock) {
    this.informerName = Objects.requireNonNull(informerName, "informerName");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The period a handler asking for {@code requested} gets when the informer checks for
   * resyncs every {@code checkPeriod} (client-go's {@code determineResyncPeriod}): zero
   * stays zero (never); nothing resyncs when the informer never checks; otherwise at least
   * the check period.
   */
  static Duration effectiveResyncPeriod(String informerName, Duration requested,
      Duration checkPeriod) {
    if (requested.isZero()) {
      return Duration.ZERO;
    }
    if (checkPeriod.isZero()) {
      log.warn("SharedIndexInformer[{}]: a handler asked for resync every {} but the informer "
          + "does not resync; it will not be resynced", informerName, requested);
      return Duration.ZERO;
    }
    if (requested.compareTo(checkPeriod) < 0) {
      log.warn("SharedIndexInformer[{}]: a handler asked for resync every {}, less than the "
          + "informer's check period; raised to {}", informerName, requested, checkPeriod);
      return checkPeriod;
    }
    return requested;
  }

  /** Creates a listener (not yet added) with the next thread number. */
  ProcessorListener<T> newListener(ResourceEventHandler<T> handler, Duration requestedResync,
      Duration resyncPeriod, BooleanSupplier informerHasSynced) {
    lock.lock();
    try {
      return new ProcessorListener<>(informerName, nextListenerNumber++, handler,
          requestedResync, resyncPeriod, clock, informerHasSynced);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds a listener; starts it if the processor runs.
   *
   * @throws IllegalStateException if the processor was stopped
   */
  void addListener(ProcessorListener<T> listener) {
    lock.lock();
    try {
      if (stopped) {
        throw new IllegalStateException(
            "SharedIndexInformer[" + informerName + "] is closed; handler not added");
      }
      listeners.put(listener, Boolean.FALSE);
      if (running) {
        listener.start();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes a listener and stops it (its pending notifications are dropped). Returns
   * whether it was there.
   */
  boolean removeListener(ProcessorListener<?> listener) {
    boolean removed;
    lock.lock();
    try {
      removed = listeners.remove(listener) != null;
    } finally {
      lock.unlock();
    }
    if (removed) {
      listener.stop();
    }
    return removed;
  }

  /** Whether {@code listener} is one of this processor's. */
  boolean contains(ProcessorListener<?> listener) {
    lock.lock();
    try {
      return listeners.containsKey(listener);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues {@code notification} on every listener, or, when {@code isSync}, only on those
   * the last {@link #shouldResync} found due.
   */
  void distribute(Notification<T> notification, boolean isSync) {
    lock.lock();
    try {
      for (Map.Entry<ProcessorListener<T>, Boolean> e : listeners.entrySet()) {
        if (!isSync || e.getValue()) {
          e.getKey().add(notification);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Marks which listeners are due for a resync now, schedules their next one, and returns
   * whether any is due. The reflector calls this before {@link Store#resync()}.
   */
  boolean shouldResync() {
    lock.lock();
    try {
      long now = clock.nanoTime();
      boolean any = false;
      for (Map.Entry<ProcessorListener<T>, Boolean> e : listeners.entrySet()) {
        ProcessorListener<T> listener = e.getKey();
        boolean due = listener.shouldResync(now);
        e.setValue(due);
        if (due) {
          any = true;
          listener.determineNextResync(now);
        }
      }
      return any;
    } finally {
      lock.unlock();
    }
  }

  /** Recomputes every listener's period for a new informer check period (before start). */
  void resyncCheckPeriodChanged(Duration checkPeriod) {
    lock.lock();
    try {
      for (ProcessorListener<T> listener : listeners.keySet()) {
        listener.setResyncPeriod(
            effectiveResyncPeriod(informerName, listener.requestedResyncPeriod(), checkPeriod));
      }
    } finally {
      lock.unlock();
    }
  }

  /** Starts every listener's thread; later listeners start when added. Idempotent. */
  void run() {
    lock.lock();
    try {
      if (running || stopped) {
        return;
      }
      running = true;
      listeners.keySet().forEach(ProcessorListener::start);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops every listener and waits, at most {@code timeout} in all, for their threads to
   * end. Later {@link #addListener} calls fail. Idempotent. Returns whether all ended.
   */
  boolean stop(Duration timeout) throws InterruptedException {
    List<ProcessorListener<T>> all;
    lock.lock();
    try {
      stopped = true;
      running = false;
      all = new ArrayList<>(listeners.keySet());
      listeners.clear();
    } finally {
      lock.unlock();
    }
    all.forEach(ProcessorListener::stop);
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean allEnded = true;
    for (ProcessorListener<T> listener : all) {
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      if (!listener.awaitTermination(left)) {
        log.warn("SharedIndexInformer[{}]: {} did not end within {} (a handler ignores "
            + "interrupts?)", informerName, listener.threadName(), timeout);
        allEnded = false;
      }
    }
    return allEnded;
  }
}

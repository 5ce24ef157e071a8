package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers notifications to one {@link ResourceEventHandler} (client-go's
 * {@code processorListener}), and is that handler's {@link ResourceEventHandlerRegistration}.
 *
 * <h2>Delivery</h2>
 * {@link #add} queues a notification and returns at once; the listener's own virtual thread,
 * named {@code informer-<name>-handler-<n>}, takes notifications in order and calls the
 * handler, one call at a time. So calls to one handler are sequential and in the order they
 * were queued, and a slow or blocked handler delays nothing but itself: not other handlers,
 * not the informer's delta loop. A handler that throws is logged; delivery goes on with the
 * next notification.
 *
 * <h2>Why the buffer is unbounded</h2>
 * The delta loop must never wait for a handler (that would let one handler stall the cache
 * and every other handler), and a handler must never miss a notification (it would then
 * hold a wrong picture of an object forever). Of block, drop and grow, only growing keeps
 * both promises, so {@link #pending} grows as needed, as client-go's ring buffer does. What
 * bounds it in practice: it is drained continuously by its own thread, so it holds only what
 * the handler lags behind the informer; a resync or relist queues at most one notification
 * per cached object. {@link HandlerMetrics#backlog()} and {@link HandlerMetrics#maxBacklog()}
 * show a handler that cannot keep up, and the buffer's memory is released when a large
 * backlog has drained.
 *
 * <h2>Resync</h2>
 * The handler asked for {@link #requestedResyncPeriod}; it gets {@link #resyncPeriod}, raised
 * to the informer's resync check period (0 when the informer never resyncs).
 * {@link #shouldResync} and {@link #determineNextResync} are driven by the informer's clock.
 *
 * <h2>Synced</h2>
 * Every add marked {@code isInInitialList} counts as one initial notification when queued
 * and is counted off when the handler returns from it; {@link #hasSynced()} is true once the
 * informer has synced and the count is zero (client-go's {@code SingleFileTracker}).
 *
 * <p>Thread-safe: every field that changes is guarded by {@link #lock}, which is never held
 * while the handler runs.
 *
 * @param <T> the object type
 */
final class ProcessorListener<T> implements ResourceEventHandlerRegistration {

  private static final Logger log = LoggerFactory.getLogger(ProcessorListener.class);

  /** A buffer that grew past this many slots is replaced by a small one once drained. */
  private static final int SHRINK_ABOVE = 1024;

  private final String informerName;
  private final String threadName;
  private final ResourceEventHandler<T> handler;
  private final Duration requestedResyncPeriod;
  private final Clock clock;
  private final BooleanSupplier informerHasSynced;

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when a notification is queued or the listener stops. */
  private final Condition changed = lock.newCondition();

  /** Notifications not yet taken by the handler thread, oldest first. */
  @GuardedBy("lock")
  private ArrayDeque<Notification<T>> pending = new ArrayDeque<>();
  /** The largest size {@link #pending} reached since it was allocated. */
  @GuardedBy("lock")
  private int pendingHighWater;
  /** Initial adds queued or being delivered, not yet returned from. */
  @GuardedBy("lock")
  private int initialPending;
  /** Set once, by {@link #stop}; nothing is delivered after. */
  @GuardedBy("lock")
  private boolean stopped;
  /** The handler thread, null before {@link #start}. */
  @GuardedBy("lock")
  private Thread thread;

  /** The effective resync period, zero for none. */
  @GuardedBy("lock")
  private Duration resyncPeriod;
  /** {@link Clock#nanoTime()} at which the next resync is due. */
  @GuardedBy("lock")
  private long nextResyncNanos;

  // Metrics.
  @GuardedBy("lock")
  private int maxBacklog;
  @GuardedBy("lock")
  private long delivered;
  @GuardedBy("lock")
  private long failed;
  @GuardedBy("lock")
  private long handlerNanosTotal;
  @GuardedBy("lock")
  private long handlerNanosMax;

  /**
   * @param informerName the informer's name, for the thread name and logs
   * @param number this listener's number within the informer, for the thread name
   * @param requestedResyncPeriod what the handler asked for (zero: never)
   * @param resyncPeriod what it gets (see {@link SharedProcessor#effectiveResyncPeriod})
   * @param informerHasSynced the informer's {@code hasSynced}
   */
  ProcessorListener(String informerName, int number, ResourceEventHandler<T> handler,
      Duration requestedResyncPeriod, Duration resyncPeriod, Clock clock,
      BooleanSupplier informerHasSynced) {
    this.informerName = Objects.requireNonNull(informerName, "informerName");
    this.threadName = "informer-" + informerName + "-handler-" + number;
    this.handler = Objects.requireNonNull(handler, "handler");
    this.requestedResyncPeriod = Objects.requireNonNull(requestedResyncPeriod);
    this.resyncPeriod = Objects.requireNonNull(resyncPeriod);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.informerHasSynced = Objects.requireNonNull(informerHasSynced);
    this.nextResyncNanos = clock.nanoTime() + resyncPeriod.toNanos();
  }

  /** The name of this listener's thread. */
  String threadName() {
    return threadName;
  }

  /** Queues a notification; never blocks. Dropped if the listener is stopped. */
  void add(Notification<T> notification) {
    Objects.requireNonNull(notification, "notification");
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      pending.addLast(notification);
      if (notification instanceof Notification.Add<T> a && a.isInInitialList()) {
        initialPending++;
      }
      int size = pending.size();
      pendingHighWater = Math.max(pendingHighWater, size);
      maxBacklog = Math.max(maxBacklog, size);
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Starts the handler thread. Idempotent; does nothing once stopped. */
  void start() {
    lock.lock();
    try {
      if (thread != null || stopped) {
        return;
      }
      thread = Thread.ofVirtual().name(threadName).start(this::run);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops delivery: drops what is pending and ends the handler thread, interrupting the
   * handler if it is in a call (it may be blocked). Idempotent; returns at once.
   */
  void stop() {
    Thread t;
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      stopped = true;
      pending = new ArrayDeque<>(0);
      changed.signalAll();
      t = thread;
    } finally {
      lock.unlock();
    }
    if (t != null && t != Thread.currentThread()) {
      t.interrupt();
    }
  }

  /**
   * Waits, at most {@code timeout}, for the handler thread to end after {@link #stop}.
   * Returns whether it ended (or never started). Does not wait for the calling thread.
   */
  boolean awaitTermination(Duration timeout) throws InterruptedException {
    Thread t;
    lock.lock();
    try {
      t = thread;
    } finally {
      lock.unlock();
    }
    if (t == null || t == Thread.currentThread()) {
      return true;
    }
    return t.join(timeout);
  }

  // ---- the handler thread

  private void run() {
    Notification<T> done = null;
    long doneNanos = 0;
    boolean doneFailed = false;
    while (true) {
      Notification<T> next;
      lock.lock();
      try {
        if (done != null) {
          recordDelivery(done, doneNanos, doneFailed);
        }
        while (pending.isEmpty() && !stopped) {
          try {
            changed.await();
          } catch (InterruptedException e) {
            // stop() interrupts, and then stopped is set. Any other interrupt (a handler that
            // re-asserted its own) must not end delivery: the flag is cleared, go on.
          }
        }
        if (stopped) {
          return;
        }
        next = pending.pollFirst();
        if (pending.isEmpty() && pendingHighWater > SHRINK_ABOVE) {
          pending = new ArrayDeque<>();
          pendingHighWater = 0;
        }
      } finally {
        lock.unlock();
      }
      long start = clock.nanoTime();
      doneFailed = false;
      try {
        next.deliverTo(handler);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        doneFailed = true;
        log.error("SharedIndexInformer[{}] handler {} threw on {}; delivery goes on",
            informerName, threadName, next.getClass().getSimpleName(), e);
      }
      doneNanos = Math.max(0, clock.nanoTime() - start);
      done = next;
    }
  }

  /** Called with the lock held, after the handler returned from {@code notification}. */
  @GuardedBy("lock")
  private void recordDelivery(Notification<T> notification, long nanos, boolean threw) {
    delivered++;
    if (threw) {
      failed++;
    }
    handlerNanosTotal += nanos;
    handlerNanosMax = Math.max(handlerNanosMax, nanos);
    if (notification instanceof Notification.Add<T> a && a.isInInitialList()) {
      initialPending--;
    }
  }

  // ---- registration

  @Override
  public boolean hasSynced() {
    // The informer first: once it has synced, every initial add has been queued here.
    if (!informerHasSynced.getAsBoolean()) {
      return false;
    }
    lock.lock();
    try {
      return initialPending == 0;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public HandlerMetrics metrics() {
    lock.lock();
    try {
      return new HandlerMetrics(pending.size(), maxBacklog, delivered, failed,
          Duration.ofNanos(handlerNanosTotal), Duration.ofNanos(handlerNanosMax));
    } finally {
      lock.unlock();
    }
  }

  // ---- resync

  /** What the handler asked for. */
  Duration requestedResyncPeriod() {
    return requestedResyncPeriod;
  }

  /** The period this listener resyncs at, zero for never. */
  Duration resyncPeriod() {
    lock.lock();
    try {
      return resyncPeriod;
    } finally {
      lock.unlock();
    }
  }

  /** Changes the period (when the informer's check period changes before start). */
  void setResyncPeriod(Duration period) {
    lock.lock();
    try {
      resyncPeriod = Objects.requireNonNull(period);
    } finally {
      lock.unlock();
    }
  }

  /** Whether a resync is due at {@code nowNanos} ({@link Clock#nanoTime()}). */
  boolean shouldResync(long nowNanos) {
    lock.lock();
    try {
      return !resyncPeriod.isZero() && nowNanos - nextResyncNanos >= 0;
    } finally {
      lock.unlock();
    }
  }

  /** Schedules the next resync one period after {@code nowNanos}. */
  void determineNextResync(long nowNanos) {
    lock.lock();
    try {
      nextResyncNanos = nowNanos + resyncPeriod.toNanos();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "ProcessorListener[" + threadName + "]";
  }
}

package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.client.MetaAccessor;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SharedIndexInformer} (client-go's {@code sharedIndexInformer} with its
 * {@code controller}): a {@link Reflector} feeding a {@link DeltaFIFO}, a delta loop applying
 * popped deltas to a {@link ThreadSafeStore} and handing notifications to a
 * {@link SharedProcessor}.
 *
 * <h2>Data flow</h2>
 * The reflector thread writes every list and watch event, through {@link TransformingStore}
 * (the transform), into the DeltaFIFO, whose {@code knownObjects} is the indexer. The delta
 * loop thread pops one key's deltas at a time and, for each delta, first updates the indexer
 * and then distributes the notification ({@link #handleDeltas}); queueing notifications never
 * blocks, so the loop runs at the speed of the indexer, whatever the handlers do.
 *
 * <h2>Adding a handler while running</h2>
 * {@link #blockDeltas} is held by the delta loop while it applies one key's deltas and by
 * {@link #addEventHandler} while it adds the listener and queues the replay of the indexer's
 * content: so the new handler sees exactly the cache at one instant and then every change
 * after it, nothing twice and nothing missed. Only the delta loop pauses, briefly (the replay
 * only queues); the other handlers go on draining their queues.
 *
 * <h2>Locks</h2>
 * Lock order: {@link #stateLock}, then {@link #blockDeltas}, then the processor's lock, then
 * a listener's lock. The delta loop takes {@link #blockDeltas} (and below), never
 * {@link #stateLock}. Thread-safe.
 *
 * @param <T> the object type
 */
final class DefaultSharedIndexInformer<T> implements SharedIndexInformer<T> {

  private static final Logger log = LoggerFactory.getLogger(SharedIndexInformer.class);

  /** No handler resyncs more often than this (client-go's {@code minimumResyncPeriod}). */
  static final Duration MINIMUM_RESYNC_PERIOD = Duration.ofSeconds(1);

  /** How long {@link #close()} waits for the informer's threads, in all. */
  static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final String name;
  private final String logName;
  private final ListerWatcher<T> listerWatcher;
  private final MetaAccessor<T> accessor;
  private final Clock clock;
  private final boolean useWatchList;
  private final long pageSize;
  @GuardedBy("stateLock")
  private ReflectorListener reflectorListener;
  private final Duration bookmarkInterval;
  private final Duration minWatchTimeout;
  private final Duration defaultEventHandlerResyncPeriod;
  private final KeyFunc<T> keyFunc;
  private final ThreadSafeStore<T> indexer;
  private final SharedProcessor<T> processor;
  /** Completed once the first list is in the indexer; cancelled on close. */
  private final CompletableFuture<Void> synced = new CompletableFuture<>();

  /** See the class comment, "Adding a handler while running". */
  private final ReentrantLock blockDeltas = new ReentrantLock();

  /** Guards the lifecycle and configuration fields below. */
  private final ReentrantLock stateLock = new ReentrantLock();
  @GuardedBy("stateLock")
  private boolean started;
  @GuardedBy("stateLock")
  private boolean closed;
  /** How often the reflector asks whether a handler is due for resync. */
  @GuardedBy("stateLock")
  private Duration resyncCheckPeriod;
  @GuardedBy("stateLock")
  private UnaryOperator<T> transform;
  @GuardedBy("stateLock")
  private WatchErrorHandler watchErrorHandler;

  /** Set once by start(), before the threads start; read by any thread. */
  private volatile DeltaFIFO<T> fifo;
  private volatile Reflector<T> reflector;
  private volatile Thread reflectorThread;
  private volatile Thread deltaLoopThread;

  DefaultSharedIndexInformer(SharedIndexInformer.Builder<T> config) {
    this.name = config.name;
    this.logName = "SharedIndexInformer[" + name + "]";
    this.listerWatcher = config.listerWatcher;
    this.accessor = config.accessor;
    this.clock = config.clock;
    this.useWatchList = config.useWatchList;
    this.pageSize = config.pageSize;
    this.reflectorListener = config.reflectorListener;
    this.bookmarkInterval = config.bookmarkInterval;
    this.minWatchTimeout = config.minWatchTimeout;
    this.defaultEventHandlerResyncPeriod = config.resyncPeriod;
    this.resyncCheckPeriod = config.resyncPeriod;
    this.transform = config.transform;
    this.watchErrorHandler = config.watchErrorHandler;
    this.keyFunc = KeyFunc.metaNamespace(accessor);
    Map<String, IndexFunc<T>> indexers = new LinkedHashMap<>();
    indexers.put(Indexer.NAMESPACE_INDEX, IndexFunc.namespace(accessor));
    indexers.putAll(config.indexers);
    this.indexer = new ThreadSafeStore<>(keyFunc, indexers);
    this.processor = new SharedProcessor<>(name, clock);
  }

  // ---- handlers

  @Override
  public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler) {
    return addEventHandler(handler, defaultEventHandlerResyncPeriod);
  }

  @Override
  public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler,
      Duration resyncPeriod) {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("resync period must not be negative: " + resyncPeriod);
    }
    stateLock.lock();
    try {
      if (closed) {
        throw new IllegalStateException(logName + " is closed; handler not added");
      }
      Duration period = resyncPeriod;
      if (period.isPositive()) {
        if (period.compareTo(MINIMUM_RESYNC_PERIOD) < 0) {
          log.warn("{}: resync period {} raised to the minimum {}", logName, period,
              MINIMUM_RESYNC_PERIOD);
          period = MINIMUM_RESYNC_PERIOD;
        }
        // Before start the check period can still follow the handlers (client-go lowers it;
        // here a never-resyncing informer also starts checking, rather than ignoring the
        // handler's period). After start it is fixed, and effectiveResyncPeriod raises.
        if (!started && (resyncCheckPeriod.isZero() || period.compareTo(resyncCheckPeriod) < 0)) {
          resyncCheckPeriod = period;
          processor.resyncCheckPeriodChanged(period);
        }
      }
      Duration effective =
          SharedProcessor.effectiveResyncPeriod(name, period, resyncCheckPeriod);
      ProcessorListener<T> listener =
          processor.newListener(handler, period, effective, this::hasSynced);
      if (!started) {
        processor.addListener(listener);
        return listener;
      }
      blockDeltas.lock();
      try {
        processor.addListener(listener);
        for (T object : indexer.list()) {
          listener.add(new Notification.Add<>(object, true));
        }
      } finally {
        blockDeltas.unlock();
      }
      return listener;
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public void removeEventHandler(ResourceEventHandlerRegistration registration) {
    Objects.requireNonNull(registration, "registration");
    if (!(registration instanceof ProcessorListener<?> listener)) {
      throw new IllegalArgumentException(
          "not a registration made by a SharedInformer: " + registration.getClass().getName());
    }
    processor.removeListener(listener);
  }

  // ---- the cache

  @Override
  public Store<T> getStore() {
    return indexer;
  }

  @Override
  public Indexer<T> getIndexer() {
    return indexer;
  }

  @Override
  public void addIndexers(Map<String, IndexFunc<T>> indexers) {
    indexer.addIndexers(indexers);
  }

  @Override
  public boolean hasSynced() {
    DeltaFIFO<T> f = fifo;
    // The queue counts an initial pop as done only after handleDeltas returned for it, so
    // when this is true every initial add is in the indexer and queued on every listener.
    return f != null && f.hasSynced();
  }

  /** Completes once {@link #hasSynced()} is true; cancelled if closed before that. */
  CompletableFuture<Void> whenSynced() {
    return synced;
  }

  @Override
  public String lastSyncResourceVersion() {
    Reflector<T> r = reflector;
    return r == null ? "" : r.lastSyncResourceVersion();
  }

  // ---- configuration

  @Override
  public void setTransform(UnaryOperator<T> transform) {
    Objects.requireNonNull(transform, "transform");
    stateLock.lock();
    try {
      requireNotStarted("setTransform");
      this.transform = transform;
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public void setWatchErrorHandler(WatchErrorHandler handler) {
    Objects.requireNonNull(handler, "handler");
    stateLock.lock();
    try {
      requireNotStarted("setWatchErrorHandler");
      this.watchErrorHandler = handler;
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public void setReflectorListener(ReflectorListener listener) {
    Objects.requireNonNull(listener, "listener");
    stateLock.lock();
    try {
      requireNotStarted("setReflectorListener");
      this.reflectorListener = listener;
    } finally {
      stateLock.unlock();
    }
  }

  @GuardedBy("stateLock")
  private void requireNotStarted(String what) {
    if (started || closed) {
      throw new IllegalStateException(logName + ": " + what + " only before start()");
    }
  }

  // ---- lifecycle

  @Override
  public void start() {
    stateLock.lock();
    try {
      if (closed) {
        throw new IllegalStateException(logName + " is closed; an informer runs only once");
      }
      if (started) {
        return;
      }
      DeltaFIFO<T> f = new DeltaFIFO<>(keyFunc, indexer);
      Store<T> input = new TransformingStore<>(f,
          transform == null ? UnaryOperator.identity() : transform, this::checkSynced);
      ReflectorBuilder<T> rb = Reflector.builder(name, listerWatcher, input, accessor)
          .clock(clock)
          .pageSize(pageSize)
          .resyncPeriod(resyncCheckPeriod, processor::shouldResync)
          .useWatchList(useWatchList)
          .bookmarkInterval(bookmarkInterval)
          .minWatchTimeout(minWatchTimeout);
      if (watchErrorHandler != null) {
        rb.watchErrorHandler(watchErrorHandler);
      }
      if (reflectorListener != null) {
        rb.listener(reflectorListener);
      }
      Reflector<T> r = rb.build();
      fifo = f;
      reflector = r;
      processor.run();
      deltaLoopThread = Thread.ofVirtual().name("informer-" + name + "-delta-loop")
          .start(this::processLoop);
      reflectorThread = Thread.ofVirtual().name("informer-" + name + "-reflector")
          .start(() -> runReflector(r));
      started = true;
      log.debug("{}: started (resync check every {})", logName, resyncCheckPeriod);
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public boolean isRunning() {
    stateLock.lock();
    try {
      return started && !closed;
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public void close() {
    stateLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      stateLock.unlock();
    }
    Reflector<T> r = reflector;
    DeltaFIFO<T> f = fifo;
    if (r != null) {
      r.close();
    }
    if (f != null) {
      f.close();
    }
    synced.completeExceptionally(new CancellationException(logName + " closed"));
    long deadline = System.nanoTime() + CLOSE_TIMEOUT.toNanos();
    try {
      // The reflector and the delta loop end promptly once closed; the handlers get the rest
      // of the one shared deadline.
      boolean ended = join(reflectorThread, deadline);
      ended &= join(deltaLoopThread, deadline);
      ended &= processor.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      if (!ended) {
        log.warn("{}: closed, but some of its threads did not end within {}", logName,
            CLOSE_TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("{}: interrupted while waiting for its threads to end", logName);
    }
    log.debug("{}: closed", logName);
  }

  private static boolean join(Thread thread, long deadlineNanos) throws InterruptedException {
    if (thread == null || thread == Thread.currentThread()) {
      return true;
    }
    return thread.join(Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime())));
  }

  // ---- the reflector thread

  private void runReflector(Reflector<T> r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      log.error("{}: the reflector ended with an error; the cache is no longer updated",
          logName, e);
    }
  }

  // ---- the delta loop thread

  private void processLoop() {
    DeltaFIFO<T> f = fifo;
    while (true) {
      try {
        if (!f.popKeyed(this::handleDeltas)) {
          return; // closed
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.error("{}: processing deltas failed", logName, e);
      }
      checkSynced();
    }
  }

  /**
   * client-go's {@code HandleDeltas}: applies one key's deltas to the indexer, notifying
   * after each; {@code key} is the deltas' objects' key. Runs on the delta loop thread.
   */
  private void handleDeltas(String key, List<Delta<T>> deltas, boolean isInInitialList) {
    blockDeltas.lock();
    try {
      for (Delta<T> delta : deltas) {
        try {
          apply(key, delta, isInInitialList);
        } catch (RuntimeException e) {
          log.error("{}: applying a {} delta of {} failed", logName, delta.type(),
              key, e);
        }
      }
    } finally {
      blockDeltas.unlock();
    }
  }

  private void apply(String key, Delta<T> delta, boolean isInInitialList) {
    T object = delta.object();
    switch (delta.type()) {
      case SYNC, REPLACED, ADDED, UPDATED -> {
        T old = indexer.put(key, object);
        if (old != null) {
          processor.distribute(new Notification.Update<>(old, object),
              isSync(delta.type(), old, object));
        } else {
          processor.distribute(new Notification.Add<>(object, isInInitialList), false);
        }
      }
      case DELETED -> {
        indexer.delete(object);
        processor.distribute(
            new Notification.Delete<>(object, delta.deletedFinalStateUnknown()), false);
      }
    }
  }

  /**
   * Whether an update goes only to the handlers due for resync: a resync, or (as client-go
   * decides) any update that leaves the resourceVersion unchanged, such as a relist
   * confirming an object. An update whose resourceVersions are unknown goes to everyone.
   */
  private boolean isSync(DeltaType type, T oldObject, T newObject) {
    if (type == DeltaType.SYNC) {
      return true;
    }
    String newRv = accessor.resourceVersion(newObject);
    return !newRv.isEmpty() && newRv.equals(accessor.resourceVersion(oldObject));
  }

  /** Completes {@link #synced} once the queue has synced; any thread. */
  private void checkSynced() {
    if (!synced.isDone() && hasSynced()) {
      synced.complete(null);
    }
  }

  @Override
  public String toString() {
    return logName;
  }
}

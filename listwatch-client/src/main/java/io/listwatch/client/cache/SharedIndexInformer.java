package io.listwatch.client.cache;

import io.listwatch.client.MetaAccessor;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A local cache of one resource (optionally restricted to a namespace and selectors), kept
 * up to date by list and watch, with named indexes, that notifies any number of handlers of
 * every change (client-go's {@code SharedIndexInformer}). Build one with {@link #builder},
 * or share one per resource through a {@link SharedInformerFactory}.
 *
 * <h2>Consistency with the server</h2>
 * The cache is <em>eventually consistent</em> with the API server. Unless communication
 * with the server keeps failing, whenever the server holds an object in some state, the
 * cache eventually holds that state or a later one of the same object, or the informer was
 * closed first; an object deleted on the server is eventually removed from the cache. For
 * one object, the states the cache goes through are a subsequence of the states the server
 * went through: some may be skipped (a relist jumps over them), but they never appear out of
 * order. Between different objects there is no ordering promise at all: the cache may show
 * a newer state of one object next to an older state of another.
 *
 * <p>The cache starts empty and fills once {@link #start()} runs. {@link #hasSynced()} turns
 * true once the first complete list has been applied to the cache (and stays true): from
 * then on the cache holds a state of every object that existed at that list's
 * resourceVersion. Objects are keyed {@code namespace/name}, or {@code name} for
 * cluster-scoped objects ({@link KeyFunc#metaNamespace}). Each read of the store or the
 * indexer is answered from one consistent snapshot: a {@link Store#list()} never holds two
 * objects with the same key, and indexes always agree with the objects.
 *
 * <p>Identity is namespace and name, not {@code metadata.uid}: if an object is deleted and
 * another with the same name created while this informer was not watching, a handler may
 * see one update from the old object to the new one. Compare uids in {@code onUpdate} where
 * that matters.
 *
 * <h2>Handlers</h2>
 * A {@link ResourceEventHandler} added before {@link #start()} is told of every change the
 * cache goes through, from the first list on. One added later first gets an add, with
 * {@code isInInitialList = true}, for every object in the cache at that moment, then every
 * later change. Each notification is delivered <em>after</em> the cache and its indexes
 * were updated for it (the cache may already hold even newer states by then), so a handler
 * may read the indexer and will find at least that state there.
 * <ul>
 *   <li>Calls to one handler are sequential, never concurrent, and for one object they come
 *       in the order of its changes.</li>
 *   <li>Each handler has its own unbounded queue and its own virtual thread, named
 *       {@code informer-<name>-handler-<n>}: a slow or blocked handler delays only itself,
 *       neither other handlers nor the cache. A handler should still be quick (hand work to
 *       a work queue): its backlog, visible in
 *       {@link ResourceEventHandlerRegistration#metrics()}, costs memory.</li>
 *   <li>A handler that throws is logged; it keeps receiving later notifications.</li>
 *   <li>A resync (per-handler period, see {@link #addEventHandler(ResourceEventHandler,
 *       Duration)}) and a relist that finds an object unchanged are delivered as
 *       {@code onUpdate} with the same resourceVersion on both sides, only to the handlers
 *       due for a resync. A relist that finds an object changed is an update for every
 *       handler; one that no longer finds an object is a delete with
 *       {@code deletedFinalStateUnknown = true} whose object is the last state seen.</li>
 *   <li>{@link ResourceEventHandlerRegistration#hasSynced()} says when a handler has been
 *       through the initial state; controllers wait for that before acting.</li>
 * </ul>
 *
 * <h2>Objects are shared: never mutate them</h2>
 * The objects in the cache, in lists and lookups, and in every notification are the same
 * instances for every reader and every handler. Mutating one corrupts the cache (its indexes
 * no longer match) and what other handlers see. Copy an object before changing it.
 *
 * <h2>Threads</h2>
 * {@link #start()} starts, per informer: the reflector thread ({@code informer-<name>-reflector},
 * lists and watches, writes the delta queue; runs the transform), the delta loop
 * ({@code informer-<name>-delta-loop}, pops deltas, updates the indexer, runs index
 * functions, queues notifications), one thread per handler, and, with a resync period, a
 * resync thread that walks the cache when a resync is due (the clock's thread only decides
 * when). All are virtual threads. {@link #close()} stops them and joins all but the resync
 * thread (a resync under way just finishes), within 10 seconds in all (a handler that
 * ignores interrupts can use that whole bound). Every public method is thread-safe.
 *
 * @param <T> the object type
 */
public interface SharedIndexInformer<T> extends SharedInformer<T> {

  /**
   * Adds indexes, built over the current content; allowed before and after start.
   *
   * @throws IllegalArgumentException if a name is already in use
   */
  void addIndexers(Map<String, IndexFunc<T>> indexers);

  /** The informer's indexer: read from it, never write to it. */
  Indexer<T> getIndexer();

  /**
   * A builder of an informer over {@code listerWatcher} (e.g. a {@link ListWatch}) reading
   * object metadata with {@code accessor}.
   */
  static <T> Builder<T> builder(ListerWatcher<T> listerWatcher, MetaAccessor<T> accessor) {
    return new Builder<>(listerWatcher, accessor);
  }

  /**
   * Configures a {@link SharedIndexInformer}. Defaults: name {@code "informer"}, no resync,
   * the namespace index only, the system clock, paged lists of 500 (no watch-list), no
   * transform, failures only logged. Not thread-safe; use from one thread.
   *
   * @param <T> the object type
   */
  final class Builder<T> {
    final ListerWatcher<T> listerWatcher;
    final MetaAccessor<T> accessor;
    String name = "informer";
    Duration resyncPeriod = Duration.ZERO;
    final Map<String, IndexFunc<T>> indexers = new LinkedHashMap<>();
    Clock clock = Clock.system();
    boolean useWatchList;
    long pageSize = 500;
    UnaryOperator<T> transform;
    WatchErrorHandler watchErrorHandler;
    ReflectorListener reflectorListener;
    Duration bookmarkInterval = Duration.ofMinutes(1);
    Duration minWatchTimeout = Duration.ofMinutes(5);

    private Builder(ListerWatcher<T> listerWatcher, MetaAccessor<T> accessor) {
      this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
      this.accessor = Objects.requireNonNull(accessor, "accessor");
    }

    /**
     * Names the informer in logs ({@code SharedIndexInformer[pods]}) and thread names;
     * usually the resource, e.g. {@code pods}. Letters, digits, '.', '-' and '_'.
     */
    public Builder<T> name(String name) {
      Objects.requireNonNull(name, "name");
      if (!name.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException(
            "informer name must be letters, digits, '.', '-' or '_': \"" + name + "\"");
      }
      this.name = name;
      return this;
    }

    /**
     * The resync period of handlers added without one, and how often the informer checks
     * whether a handler is due (client-go's {@code defaultEventHandlerResyncPeriod}). Zero
     * (the default): no resync.
     */
    public Builder<T> resyncPeriod(Duration period) {
      Objects.requireNonNull(period, "period");
      if (period.isNegative()) {
        throw new IllegalArgumentException("resync period must not be negative: " + period);
      }
      this.resyncPeriod = period;
      return this;
    }

    /**
     * Indexes to install besides {@link Indexer#NAMESPACE_INDEX} (which is always there;
     * an entry with that name replaces the default namespace index).
     */
    public Builder<T> indexers(Map<String, IndexFunc<T>> indexers) {
      this.indexers.putAll(Objects.requireNonNull(indexers, "indexers"));
      return this;
    }

    /** The clock for resyncs, backoff and handler timings. */
    public Builder<T> clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** List with a watch-list ({@code sendInitialEvents}), falling back to paged lists. */
    public Builder<T> useWatchList(boolean useWatchList) {
      this.useWatchList = useWatchList;
      return this;
    }

    /** Page size of lists (0: unpaged). Default 500. */
    public Builder<T> pageSize(long pageSize) {
      if (pageSize < 0) {
        throw new IllegalArgumentException("page size must not be negative: " + pageSize);
      }
      this.pageSize = pageSize;
      return this;
    }

    /**
     * A function applied to every object before it enters the informer's queue, so the cache
     * and handlers only ever see transformed objects (e.g. without managedFields, to save
     * memory). Runs on the reflector thread; must return an object with the same namespace
     * and name, and may return its argument. Same as {@link SharedInformer#setTransform}.
     */
    public Builder<T> transform(UnaryOperator<T> transform) {
      this.transform = Objects.requireNonNull(transform, "transform");
      return this;
    }

    /** Told of every list and watch failure (the reflector retries by itself). */
    public Builder<T> watchErrorHandler(WatchErrorHandler handler) {
      this.watchErrorHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * The server's bookmark interval (kube: 1 minute). A watch that brings nothing, not even
     * a bookmark, for twice this long is taken for dead and replaced. Zero turns that off.
     */
    public Builder<T> bookmarkInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative()) {
        throw new IllegalArgumentException("bookmark interval must not be negative: " + interval);
      }
      this.bookmarkInterval = interval;
      return this;
    }

    /** Watches ask the server to end them after a random time in [min, 2 × min). Default 5 minutes. */
    public Builder<T> minWatchTimeout(Duration min) {
      this.minWatchTimeout = Objects.requireNonNull(min, "min");
      return this;
    }

    /** Told of every list and watch the reflector starts, and why. */
    public Builder<T> reflectorListener(ReflectorListener listener) {
      this.reflectorListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** A new informer, not started. */
    public SharedIndexInformer<T> build() {
      return new DefaultSharedIndexInformer<>(this);
    }
  }
}

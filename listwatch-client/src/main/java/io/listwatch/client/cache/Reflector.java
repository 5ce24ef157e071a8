package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.MetaAccessor;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's Reflector: keeps a {@link Store} equal to the server's view of one resource
 * by listing it, then watching it from the list's resourceVersion.
 *
 * <h2>Design</h2>
 * The thread that calls {@link #run()} alternates between two steps until {@link #close()}:
 * <ul>
 *   <li><b>LIST</b>: a paged list ({@code limit}/{@code continue}, as client-go's pager)
 *       then {@code store.replace(items, listRv)}; or, with {@code useWatchList}, a
 *       watch-list ({@code sendInitialEvents=true}) whose initial events are collected until
 *       the {@code k8s.io/initial-events-end} bookmark and then replace the store, after which
 *       the same stream goes on as a watch. The first list asks for {@code "0"} (any
 *       version, from the watch cache), later ones for the last synced resourceVersion,
 *       and {@code ""} (a consistent read) once the server said that version is
 *       unavailable (410, or 504 "Too large resource version").</li>
 *   <li><b>WATCH</b>: a watch from {@link #lastSyncResourceVersion()} with bookmarks and a
 *       random timeout in [minWatchTimeout, 2 × minWatchTimeout). ADDED, MODIFIED and
 *       DELETED go to the store; every event, bookmarks included, advances the
 *       resourceVersion.</li>
 * </ul>
 * What follows what:
 * <table>
 *   <caption>Outcomes</caption>
 *   <tr><th>outcome</th><th>next</th><th>wait</th></tr>
 *   <tr><td>list done</td><td>WATCH from the list's rv</td><td>none</td></tr>
 *   <tr><td>list fails with 410 (also an expired continue token) or too-large rv</td>
 *       <td>LIST with {@code ""}</td><td>backoff</td></tr>
 *   <tr><td>list fails otherwise</td><td>LIST again</td><td>backoff or Retry-After</td></tr>
 *   <tr><td>watch ended by the server (its timeout)</td><td>WATCH from last rv</td>
 *       <td>none</td></tr>
 *   <tr><td>watch silent for 2 × bookmarkInterval</td><td>WATCH from last rv</td>
 *       <td>none</td></tr>
 *   <tr><td>410 on the watch (open or ERROR event)</td><td>LIST from last rv</td>
 *       <td>backoff</td></tr>
 *   <tr><td>any other watch failure: connection error, 429, 5xx, other ERROR event, a
 *       watch that ends within a second without an event</td>
 *       <td>WATCH from last rv</td><td>backoff or Retry-After</td></tr>
 *   <tr><td>watch-list rejected (4xx on open) or ended before its bookmark</td>
 *       <td>paged LIST, now and on every later relist</td><td>none</td></tr>
 *   <tr><td>watch-list fails before its bookmark otherwise (410: from {@code ""})</td>
 *       <td>watch-list again</td><td>backoff or Retry-After</td></tr>
 *   <tr><td>{@code store.replace} throws</td><td>LIST again</td><td>backoff</td></tr>
 * </table>
 * An event whose {@code store.add/update/delete} throws is reported and skipped; the
 * resourceVersion still advances past it, as in client-go.
 * Re-watching instead of relisting is always safe: if the resourceVersion has left the
 * server's history, the re-watch gets a 410 and that relists. Relisting after a 410 waits
 * a backoff, as client-go does, so that many clients expiring together do not relist at
 * the same instant. The backoff ({@link Backoff}) is jittered, exponential from
 * {@code initialBackoff} to {@code maxBackoff}, and starts over once two minutes pass
 * without a failure.
 *
 * <p>Every failure is logged, counted in {@link #metrics()} and passed to the
 * {@link WatchErrorHandler}; every list and watch is announced to the {@link ReflectorListener}
 * ({@link ReflectorReporter}). Options are set with {@link ReflectorBuilder}.
 *
 * <h2>Threads</h2>
 * {@link #run()} runs on one thread the owner provides; the store, the listener and the
 * error handler are called on it. {@link #lastSyncResourceVersion()} and {@link #metrics()}
 * may be read from any thread. {@link #close()} may be called from any thread: it closes
 * the open watch and interrupts the run thread (waking it from a backoff or a blocking
 * list call), clearing that interrupt again before {@code run()} returns. Resyncs run on a
 * virtual thread of their own (the clock's thread only decides when), so a store used with a
 * resync period must be thread-safe (DeltaFIFO is). The staleness check runs on the clock's
 * thread and only closes the stream.
 *
 * @param <T> the object type
 */
public final class Reflector<T> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Reflector.class);

  /** A watch that ends this soon with no event is a failure, not a server timeout. */
  static final Duration VERY_SHORT_WATCH = Duration.ofSeconds(1);

  private final String name;
  private final ListerWatcher<T> listerWatcher;
  private final Store<T> store;
  private final MetaAccessor<T> accessor;
  private final Clock clock;
  private final long pageSize;
  private final boolean useWatchList;
  private final long minWatchTimeoutSeconds;
  private final Duration silenceLimit;
  private final ReflectorReporter reporter;
  private final RandomGenerator random;
  private final ReflectorMetrics metrics;
  private final ReflectorResync resync;

  /** Confined to the run thread. */
  private final Backoff backoff;
  /** Written only by the run thread. */
  private volatile String lastSyncResourceVersion = "";
  /** client-go's isLastSyncResourceVersionUnavailable. Confined to the run thread. */
  private boolean lastSyncResourceVersionUnavailable;
  /** Set once a watch-list was rejected: use paged lists from then on. Run thread only. */
  private boolean watchListUnsupported;
  /** Whether the server paged the initial "0" list (so it honours limits). Run thread only. */
  private boolean paginatedResult;

  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The open watch, so that close() can end it. Written by the run thread. */
  private volatile ReflectorWatch<T> currentWatch;
  private final Object lock = new Object();
  /** The thread in run(), null before and after. */
  @GuardedBy("lock")
  private Thread runThread;
  /** Whether close() interrupted runThread. */
  @GuardedBy("lock")
  private boolean interruptedByClose;

  Reflector(ReflectorBuilder<T> config) {
    this.name = "Reflector[" + config.name + "]";
    this.listerWatcher = config.listerWatcher;
    this.store = config.store;
    this.accessor = config.accessor;
    this.clock = config.clock;
    this.metrics = new ReflectorMetrics(clock);
    this.pageSize = config.pageSize;
    this.resync = new ReflectorResync(name, clock, config.resyncPeriod, config.shouldResync,
        store);
    this.useWatchList = config.useWatchList;
    this.minWatchTimeoutSeconds = Math.max(1, config.minWatchTimeout.toSeconds());
    // plus, not multipliedBy(2): the same Duration without loading BigDecimal on the start path
    this.silenceLimit = config.bookmarkInterval.plus(config.bookmarkInterval);
    this.reporter = new ReflectorReporter(name, metrics, config.watchErrorHandler, config.listener);
    this.random = config.random;
    this.backoff = Backoff.reflectorDefaults(config.initialBackoff, config.maxBackoff, clock,
        random);
  }

  /** @param name for logs and errors, e.g. {@code pods} (shown as {@code Reflector[pods]}) */
  public static <T> ReflectorBuilder<T> builder(String name, ListerWatcher<T> listerWatcher, Store<T> store,
      MetaAccessor<T> accessor) {
    return new ReflectorBuilder<>(name, listerWatcher, store, accessor);
  }

  /**
   * Lists and watches until {@link #close()} (or the calling thread is interrupted),
   * retrying every failure with backoff. Called once, on a thread the owner provides.
   *
   * @throws IllegalStateException when called a second time
   */
  public void run() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException(name + ": run() was already called");
    }
    synchronized (lock) {
      if (closed.get()) {
        return;
      }
      runThread = Thread.currentThread();
    }
    log.debug("{}: starting", name);
    resync.start();
    try {
      ReflectorStep step = ReflectorStep.list("initial");
      while (step.kind() != ReflectorStep.Kind.STOP && !stopping()) {
        step = step.kind() == ReflectorStep.Kind.LIST
            ? list(step.reason()) : watch(step.reason());
      }
    } finally {
      resync.stop();
      synchronized (lock) {
        runThread = null;
        if (interruptedByClose) {
          Thread.interrupted();
        }
      }
      log.debug("{}: stopped at resourceVersion {}", name, lastSyncResourceVersion);
    }
  }

  /** The resourceVersion of the last list or event delivered to the store, "" before any. */
  public String lastSyncResourceVersion() {
    return lastSyncResourceVersion;
  }

  /** This reflector's counters. */
  public ReflectorMetrics metrics() {
    return metrics;
  }

  /** {@code Reflector[<name>]}, as in logs. */
  public String name() {
    return name;
  }

  /** Stops {@link #run()} and closes the open watch. Idempotent; any thread. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    ReflectorWatch<T> watch = currentWatch;
    if (watch != null) {
      watch.close();
    }
    synchronized (lock) {
      if (runThread != null) {
        interruptedByClose = true;
        runThread.interrupt();
      }
    }
  }

  // ---- LIST ----

  private ReflectorStep list(String reason) {
    if (useWatchList && !watchListUnsupported) {
      return watchList(reason);
    }
    String rv = lastSyncResourceVersionUnavailable ? ""
        : lastSyncResourceVersion.isEmpty() ? "0" : lastSyncResourceVersion;
    metrics.listStarted();
    log.debug("{}: listing from resourceVersion \"{}\" ({})", name, rv, reason);
    reporter.onList(rv, reason);
    ReflectorPager.Result<T> result;
    try {
      Optional<ReflectorPager.Result<T>> listed =
          ReflectorPager.listAll(listerWatcher, rv, relistPageSize(rv), this::stopping);
      if (listed.isEmpty()) {
        return ReflectorStep.STOP;
      }
      result = listed.get();
      if (rv.equals("0") && result.paginated()) {
        paginatedResult = true;
      }
    } catch (RuntimeException e) {
      if (stopping()) {
        return ReflectorStep.STOP;
      }
      if (ReflectorErrors.isResourceVersionUnavailable(e)) {
        lastSyncResourceVersionUnavailable = true;
      }
      String why = ReflectorErrors.describe(e);
      reporter.report(e, "list from resourceVersion \"" + rv + "\" failed: " + why);
      return backoffThen(ReflectorStep.list(why), e);
    }
    RuntimeException replaceFailure = replaceStore(result.items(), result.resourceVersion());
    return replaceFailure == null ? ReflectorStep.watch("listed") : replaceFailed(replaceFailure);
  }

  /**
   * The page size of a list from {@code rv} (client-go's rule). A list from a resourceVersion
   * other than "" and "0" is a relist; kube serves a limited list at such a version from
   * storage at exactly that version ("Exact"), which after a 410 on the watch would hand back
   * the same too-old version again. Unpaged, it is served from the watch cache with
   * "not older than" semantics, fresh and cheap. Only a server that paged the initial
   * "0" list (its watch cache is off) keeps getting paged relists.
   */
  private long relistPageSize(String rv) {
    if (rv.isEmpty() || rv.equals("0") || paginatedResult) {
      return pageSize;
    }
    return 0;
  }

  /**
   * Replaces the store with a completed list (or watch-list) and records its resourceVersion;
   * returns the store's exception if it threw, null otherwise.
   */
  private RuntimeException replaceStore(List<T> items, String listRv) {
    // Set first, so whoever sees the store synced (an informer's hasSynced) also sees this
    // resourceVersion; restored if the store refuses the list.
    String previous = lastSyncResourceVersion;
    lastSyncResourceVersion = listRv;
    try {
      store.replace(items, listRv);
    } catch (RuntimeException e) {
      lastSyncResourceVersion = previous;
      return e;
    }
    lastSyncResourceVersionUnavailable = false;
    metrics.listed(items.size());
    log.debug("{}: listed {} objects at resourceVersion {}", name, items.size(), listRv);
    reporter.onListed(listRv, items.size());
    return null;
  }

  private ReflectorStep replaceFailed(RuntimeException error) {
    if (stopping()) {
      return ReflectorStep.STOP;
    }
    reporter.report(error, "store.replace failed: " + error);
    return backoffThen(ReflectorStep.list("store.replace failed"), error);
  }

  private ReflectorStep watchList(String reason) {
    String rv = lastSyncResourceVersionUnavailable ? "" : lastSyncResourceVersion;
    metrics.listStarted();
    log.debug("{}: watch-list from resourceVersion \"{}\" ({})", name, rv, reason);
    reporter.onList(rv, reason);
    ListOptions options = ReflectorWatch.watchListOptions(rv, watchTimeoutSeconds());
    WatchStream<T> stream;
    try {
      stream = listerWatcher.watch(options);
    } catch (RuntimeException e) {
      if (!stopping() && ReflectorErrors.isWatchListRejected(e)) {
        return fallBackToList(e, ReflectorErrors.describe(e));
      }
      return watchFailed(e, null, true);
    }
    return consume(stream, true);
  }

  private ReflectorStep fallBackToList(Throwable error, String why) {
    watchListUnsupported = true;
    String reason = "watch-list not supported: " + why;
    reporter.report(error, reason + "; falling back to paged lists");
    return ReflectorStep.list(reason);
  }

  // ---- WATCH ----

  private ReflectorStep watch(String reason) {
    String rv = lastSyncResourceVersion;
    ListOptions options = ReflectorWatch.watchOptions(rv, watchTimeoutSeconds());
    metrics.watchStarted();
    log.debug("{}: watching from resourceVersion \"{}\" ({})", name, rv, reason);
    reporter.onWatch(rv, reason);
    WatchStream<T> stream;
    try {
      stream = listerWatcher.watch(options);
    } catch (RuntimeException e) {
      return watchFailed(e, null, false);
    }
    return consume(stream, false);
  }

  /**
   * Reads {@code stream} until it ends or fails. With {@code watchList}, collects the initial
   * events until their bookmark, replaces the store, then goes on as a plain watch.
   */
  private ReflectorStep consume(WatchStream<T> stream, boolean watchList) {
    ReflectorWatch<T> watch = new ReflectorWatch<>(stream, clock, silenceLimit);
    currentWatch = watch;
    // close() sets closed before reading currentWatch: one of us closes the stream.
    if (closed.get()) {
      watch.close();
      currentWatch = null;
      return ReflectorStep.STOP;
    }
    watch.start();
    ReflectorInitialEvents<T> initialEvents =
        watchList ? new ReflectorInitialEvents<>(accessor) : null;
    Throwable failure = null;
    RuntimeException replaceFailure = null;
    try {
      while (true) {
        Optional<WatchEvent<T>> next;
        try {
          next = stream.next();
        } catch (IOException | RuntimeException e) {
          failure = e;
          break;
        }
        if (next.isEmpty()) {
          break;
        }
        WatchEvent<T> event = next.get();
        metrics.event(watch.noteEvent());
        if (event.type() == WatchEvent.Type.ERROR) {
          failure = new StatusException(event.status());
          break;
        }
        if (initialEvents == null) {
          apply(event);
        } else if (initialEvents.add(event)) {
          replaceFailure = replaceStore(initialEvents.objects(),
              accessor.resourceVersion(event.object()));
          if (replaceFailure != null) {
            break;
          }
          initialEvents = null;
        }
      }
    } finally {
      // The stream is closed (and its staleness check cancelled) before any backoff.
      currentWatch = null;
      watch.close();
    }
    if (replaceFailure != null) {
      return replaceFailed(replaceFailure);
    }
    return failure != null
        ? watchFailed(failure, watch, initialEvents != null)
        : watchEnded(watch, initialEvents != null);
  }

  /** Applies one event of a plain watch to the store and advances the resourceVersion. */
  private void apply(WatchEvent<T> event) {
    T object = event.object();
    try {
      switch (event.type()) {
        case ADDED -> store.add(object);
        case MODIFIED -> store.update(object);
        case DELETED -> store.delete(object);
        case BOOKMARK, ERROR -> { }
      }
    } catch (RuntimeException e) {
      if (!stopping()) {
        reporter.report(e, "store." + event.type().name().toLowerCase() + " failed: " + e);
      }
    }
    String rv = accessor.resourceVersion(object);
    if (!rv.isEmpty()) {
      lastSyncResourceVersion = rv;
    }
  }

  /** The stream ended without an error: the server's timeout, a silent watch, or worse. */
  private ReflectorStep watchEnded(ReflectorWatch<T> watch, boolean initialPhase) {
    if (stopping()) {
      return ReflectorStep.STOP;
    }
    if (watch.silent()) {
      return silentWatch(initialPhase);
    }
    if (initialPhase) {
      return fallBackToList(
          new IllegalStateException("the watch-list ended before the initial-events-end bookmark"),
          "stream ended before the initial-events-end bookmark");
    }
    if (watch.events() == 0 && watch.age().compareTo(VERY_SHORT_WATCH) < 0) {
      IOException error = new IOException("very short watch: the watch ended after "
          + ReflectorErrors.formatDuration(watch.age()) + " without any event");
      reporter.report(error, error.getMessage());
      return backoffThen(ReflectorStep.watch("very short watch"), error);
    }
    log.debug("{}: watch ended after {} events", name, watch.events());
    return ReflectorStep.watch("watch ended");
  }

  private ReflectorStep silentWatch(boolean initialPhase) {
    String reason = "watch silent for " + ReflectorErrors.formatDuration(silenceLimit);
    reporter.report(new TimeoutException(reason), reason + ", watching again");
    return initialPhase ? ReflectorStep.list(reason) : ReflectorStep.watch(reason);
  }

  /**
   * A watch (or watch-list) failed: 410 relists, anything else watches again (a watch-list
   * retries the watch-list), both after a backoff.
   */
  private ReflectorStep watchFailed(Throwable error, ReflectorWatch<T> watch, boolean watchList) {
    if (stopping()) {
      return ReflectorStep.STOP;
    }
    if (watch != null && watch.silent()) {
      return silentWatch(watchList);
    }
    String why = ReflectorErrors.describe(error);
    if (ReflectorErrors.isExpired(error)) {
      if (watchList) {
        lastSyncResourceVersionUnavailable = true;
      }
      reporter.report(error, "watch from resourceVersion " + lastSyncResourceVersion + ": " + why
          + ", relisting");
      return backoffThen(ReflectorStep.list(why), error);
    }
    reporter.report(error, "watch failed: " + why);
    return backoffThen(watchList ? ReflectorStep.list(why) : ReflectorStep.watch(why), error);
  }

  private long watchTimeoutSeconds() {
    return minWatchTimeoutSeconds + random.nextLong(minWatchTimeoutSeconds);
  }

  // ---- waiting ----

  /** Waits the server's Retry-After or the next backoff, then goes on with {@code next}. */
  private ReflectorStep backoffThen(ReflectorStep next, Throwable error) {
    Duration delay = ReflectorErrors.retryAfter(error).orElseGet(backoff::next);
    log.debug("{}: waiting {} before: {}", name, ReflectorErrors.formatDuration(delay),
        next.reason());
    try {
      clock.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ReflectorStep.STOP;
    }
    return stopping() ? ReflectorStep.STOP : next;
  }

  private boolean stopping() {
    return closed.get() || Thread.currentThread().isInterrupted();
  }

}

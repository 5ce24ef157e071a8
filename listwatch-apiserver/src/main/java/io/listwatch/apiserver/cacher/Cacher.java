package io.listwatch.apiserver.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.ContinueToken;
import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch cache of one resource and its fan-out: fills from storage, follows one storage
 * watch, serves list, get and watch from memory, and hands each event to every matching
 * {@link CacheWatcher}.
 *
 * <h2>Consistency</h2>
 * A read with resourceVersion "" is consistent: it waits (up to the freshness timeout) until
 * the cache has seen storage's current revision, asking the storage watch for a progress
 * notification so a quiet resource catches up at once. resourceVersion "0" is served as the
 * cache is; N waits until the cache reaches N. A page of a paged list, or an Exact read at an
 * older revision, is served from storage at that revision, so every page of a list comes from
 * one snapshot.
 *
 * <h2>Threads</h2>
 * Events arrive on the storage watch's delivery thread, which applies them to the cache and
 * dispatches them while holding {@link #dispatchLock}. Registering a watcher takes the same
 * lock, so a new watcher gets exactly the events after its starting point: no gap, no
 * duplicate; when the lock is busy, the registration waits for it on a virtual thread, not on
 * the caller's thread (an event loop). Dispatch never blocks: a watcher whose queue is full is terminated. The
 * once-a-second tick (bookmarks, watch deadlines) runs on the clock's scheduler, also under
 * the lock. All time, timers included, comes from the injected {@link Clock}: on a
 * {@code FakeClock} nothing happens until the test advances it. Thread-safe.
 */
public final class Cacher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Cacher.class);
  private static final int FILL_PAGE = 10_000;
  /** Where reads from storage that wait for a conversion webhook run: a virtual thread each. */
  private static final java.util.concurrent.Executor CONVERSIONS =
      java.util.concurrent.Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("cacher-conversion-", 0).factory());
  /** Where a watch waits to be registered while the dispatch lock is busy: a virtual thread each. */
  private static final java.util.concurrent.Executor REGISTRATIONS =
      java.util.concurrent.Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("cacher-register-", 0).factory());

  private final ResourceDefinition def;
  private final Storage storage;
  private final CacherConfig config;
  /** How often a read waiting for the cache to reach a revision asks the storage watch for progress. */
  private static final java.time.Duration PROGRESS_INTERVAL = java.time.Duration.ofMillis(100);
  /** How often watchers are given their bookmarks and checked against their deadlines. */
  private static final java.time.Duration TICK = java.time.Duration.ofSeconds(1);
  private final Clock clock;
  private final ObjectDecoder decoder;
  private final WatchCache cache;
  private final String logName;
  private final ReentrantLock dispatchLock = new ReentrantLock();
  @GuardedBy("dispatchLock")
  private final List<CacheWatcher> watchers = new ArrayList<>();
  /** Watchers ended on a thread that did not hold the lock; removed at the next dispatch or tick. */
  private final java.util.Queue<CacheWatcher> endedWatchers = new java.util.concurrent.ConcurrentLinkedQueue<>();
  @GuardedBy("dispatchLock")
  private final List<CacheListener> listeners = new ArrayList<>();
  private final AtomicLong terminatedWatchers = new AtomicLong();
  /** Stored objects skipped because they could not be read ({@link UnreadableObjectException}). */
  private final AtomicLong unreadableObjects = new AtomicLong();
  /** Events received from storage; added once per delivered batch. */
  private final LongAdder eventsReceived = new LongAdder();
  /** Events queued to watchers (one per watcher per event), counted as each is queued. */
  private final LongAdder eventsDispatched = new LongAdder();
  /**
   * What writers of this resource handed over before storage's event for it arrived
   * ({@link #prime}), by key: the event takes the object whose resourceVersion it carries
   * instead of parsing the stored bytes again. Bounded by {@link #MAX_PRIMED}.
   */
  private final java.util.concurrent.ConcurrentHashMap<String, CachedObject> primed =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MAX_PRIMED = 10_000;
  private volatile Watch storageWatch;
  private volatile boolean closed;
  private volatile Clock.Cancellable ticker;

  /**
   * @param clock the time the tick, history ages and watch deadlines are measured in, and the
   *     scheduler of the tick and of freshness timeouts; the same clock the caller computes
   *     deadlines with
   */
  public Cacher(ResourceDefinition def, Storage storage, CacherConfig config, Clock clock) {
    this.def = def;
    this.clock = clock;
    this.storage = storage;
    this.config = config;
    this.decoder = new ObjectDecoder(def);
    this.cache = new WatchCache(config.historyCapacity(), config.historyMaxAge().toNanos());
    this.logName = "Cacher[" + def.plural() + (def.group().isEmpty() ? "" : "." + def.group()) + "]";
  }

  public ResourceDefinition resource() {
    return def;
  }

  /** Fills the cache from storage and starts following it. Blocks until filled. */
  public void start() {
    fill();
    scheduleTick();
  }

  private void fill() {
    List<CachedObject> objects = new ArrayList<>();
    RangeRequest page = RangeRequest.prefix(def.storagePrefix()).withLimit(FILL_PAGE);
    long rev;
    while (true) {
      RangeResult r = storage.range(page).join();
      for (KeyValue kv : r.kvs()) {
        CachedObject o = decodeOrSkip(kv.key(), kv.modRevision(), kv.value());
        if (o != null) {
          objects.add(o);
        }
      }
      rev = r.revision();
      if (!r.more()) {
        break;
      }
      page = page.atRevision(rev).withStartKey(io.listwatch.storage.Keys.after(r.kvs().getLast().key()));
    }
    cache.replace(objects, rev);
    storageWatch = storage.watch(def.storagePrefix(), rev, new StorageFeed());
    LOG.debug("{}: filled with {} objects at resourceVersion {}", logName, objects.size(), rev);
  }

  /** Receives the storage watch; runs on its delivery thread. */
  private final class StorageFeed implements WatchListener {
    @Override
    public void onEvents(List<WatchEvent> events) {
      List<CompletableFuture<Long>> ready = new ArrayList<>();
      // a conversion webhook may take long: asked before the lock, which event loops take too
      Map<String, Object> converted = decoder.remote() ? convertBeforeDispatch(events) : Map.of();
      long now = clock.nanoTime();
      dispatchLock.lock();
      try {
        for (WatchEvent e : events) {
          WatchCacheEvent ce = toCacheEvent(e, now, converted);
          if (ce == null) {
            ready.addAll(cache.advanceTo(e.revision(), now)); // nothing to serve, but the revision passed
            continue;
          }
          ready.addAll(cache.apply(ce, now));
          dispatch(ce);
          notifyListeners(ce);
        }
      } finally {
        dispatchLock.unlock();
        eventsReceived.add(events.size());
      }
      long rv = events.getLast().revision();
      if (primed.size() > MAX_PRIMED / 2) { // a write primed after its own event: nothing will take it
        primed.values().removeIf(p -> p.resourceVersion() <= rv);
      }
      ready.forEach(f -> f.complete(rv));
    }

    @Override
    public void onProgress(long revision) {
      List<CompletableFuture<Long>> ready;
      dispatchLock.lock();
      try {
        ready = cache.advanceTo(revision, clock.nanoTime());
      } finally {
        dispatchLock.unlock();
      }
      ready.forEach(f -> f.complete(revision));
    }

    @Override
    public void onError(StorageException error) {
      if (closed) {
        return;
      }
      if (error.code() == StorageException.Code.COMPACTED) {
        LOG.warn("{}: storage history compacted under the cache; relisting", logName);
        dispatchLock.lock();
        try {
          List.copyOf(watchers).forEach(CacheWatcher::end);
          fill();
          listeners.forEach(Cacher.this::replay);
        } finally {
          dispatchLock.unlock();
        }
      } else {
        LOG.error("{}: storage watch failed; the cache stops following storage", logName, error);
      }
    }
  }

  /**
   * The objects of {@code events} (but deletions) decoded through the conversion webhook, all
   * asked at once, by {@link #convertedKey}: each a {@link CachedObject}, or the
   * {@link StatusException} of its failed conversion; left out when unreadable.
   */
  private Map<String, Object> convertBeforeDispatch(List<WatchEvent> events) {
    Map<String, CompletableFuture<CachedObject>> asked = new java.util.LinkedHashMap<>();
    for (WatchEvent e : events) {
      if (e.type() != WatchEvent.Type.DELETE) {
        asked.put(convertedKey(e.kv().key(), e.revision()), decoder.decodeAsync(e.kv().key(), e.revision(), e.kv().value()));
      }
    }
    Map<String, Object> out = new java.util.HashMap<>();
    asked.forEach((k, f) -> {
      try {
        out.put(k, f.join());
      } catch (CompletionException failed) {
        if (unwrap(failed) instanceof StatusException se) {
          out.put(k, se);
        }
      }
    });
    return out;
  }

  private static String convertedKey(String key, long revision) {
    return revision + "/" + key;
  }

  /**
   * Ends every watch with an ERROR event carrying {@code failure} (a conversion webhook failed
   * on an event these watchers would have been sent; the event is not cached).
   */
  @GuardedBy("dispatchLock")
  private void failWatchers(StatusException failure) {
    removeEndedWatchers();
    byte[] status;
    try {
      status = ObjectDecoder.MAPPER.writeValueAsBytes(failure.status());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    for (CacheWatcher w : List.copyOf(watchers)) {
      w.offerFrame(w.sink().encoding().error(status));
      w.end();
    }
    watchers.clear();
  }

  /** The cache's event for a storage event, or null when its object cannot be read (skipped). */
  @GuardedBy("dispatchLock")
  private WatchCacheEvent toCacheEvent(WatchEvent e, long now, Map<String, Object> converted) {
    String key = e.kv().key();
    CachedObject prev = cache.current(key);
    if (e.type() == WatchEvent.Type.DELETE) {
      takePrimed(key, e.revision());
      if (prev == null) {
        try {
          prev = decoder.decode(key, e.prevKv().modRevision(), e.prevKv().value());
        } catch (UnreadableObjectException | StatusException unreadable) {
          // skipped when it was stored, so no watcher saw it: nothing to tell (an unsafe delete)
          LOG.warn("{}: an object that could not be read was deleted: {}", logName, key);
          return null;
        }
      }
      return new WatchCacheEvent(WatchCacheEvent.Type.DELETED, decoder.restamp(prev, e.revision()), prev, now);
    }
    CachedObject obj = takePrimed(key, e.revision());
    Object pre = converted.get(convertedKey(key, e.revision()));
    if (pre instanceof StatusException failed) {
      LOG.error("{}: an event cannot be converted; its watches end: {}", logName, failed.getMessage());
      unreadableObjects.incrementAndGet();
      failWatchers(failed);
      return null;
    }
    if (obj == null) {
      obj = pre instanceof CachedObject c ? c : decodeOrSkip(key, e.revision(), e.kv().value());
    }
    if (obj == null) {
      return null;
    }
    if (prev == null) {
      return new WatchCacheEvent(WatchCacheEvent.Type.ADDED, obj, null, now);
    }
    CachedObject before = prev;
    return new WatchCacheEvent(WatchCacheEvent.Type.MODIFIED, obj, prev, now,
        () -> decoder.restamp(before, e.revision()).json());
  }

  /**
   * Hands over what a write of this resource just stored, so that its event is not decoded
   * again: {@code stored} is the object as storage now holds it at {@code resourceVersion},
   * with that resourceVersion set, in this cache's version (a built-in resource's; a custom
   * resource's is converted by the event, so it is not taken here). The object is read at once;
   * the caller keeps it. Called by the store after its write succeeded, on any thread.
   *
   * @return the object as this cache holds and serves it (what a GET answers), or empty for a
   *     custom resource
   */
  public java.util.Optional<CachedObject> prime(String key, long resourceVersion, ObjectNode stored) {
    if (def.customResource().isPresent()) {
      return java.util.Optional.empty();
    }
    CachedObject o;
    try {
      o = decoder.fromTree(key, resourceVersion, stored);
    } catch (java.io.IOException e) {
      return java.util.Optional.empty();
    }
    CachedObject current = cache.current(key);
    if ((current == null || current.resourceVersion() < resourceVersion) && primed.size() < MAX_PRIMED) {
      primed.merge(key, o, (old, mine) -> old.resourceVersion() > mine.resourceVersion() ? old : mine);
    }
    return java.util.Optional.of(o);
  }

  /** The object primed for {@code key} at {@code revision}, if any; drops what the event makes stale. */
  private CachedObject takePrimed(String key, long revision) {
    CachedObject p = primed.get(key);
    if (p == null || p.resourceVersion() > revision) {
      return null;
    }
    primed.remove(key, p);
    return p.resourceVersion() == revision ? p : null;
  }

  /**
   * The decoded object, or null when storage holds something no reader takes: kube's cacher
   * skips an object it cannot decode, with an error, and goes on serving the rest.
   */
  private CachedObject decodeOrSkip(String key, long revision, byte[] value) {
    try {
      return decoder.decode(key, revision, value);
    } catch (UnreadableObjectException | StatusException e) { // unreadable, or its conversion webhook failed
      unreadableObjects.incrementAndGet();
      LOG.error("{}: skipping an object that cannot be read (lists and watches leave it out, a get of it "
          + "answers 500): {}", logName, e.getMessage());
      return null;
    }
  }

  /** Hands {@code event} to every watcher; returns how many queued it. */
  @GuardedBy("dispatchLock")
  private int dispatch(WatchCacheEvent event) {
    removeEndedWatchers();
    int delivered = 0;
    for (int i = watchers.size() - 1; i >= 0; i--) {
      CacheWatcher w = watchers.get(i);
      CacheWatcher.Delivery d = w.deliver(event);
      if (d == CacheWatcher.Delivery.QUEUED) {
        delivered++;
        eventsDispatched.increment(); // a scrape may still run behind a watcher that already got it
      } else if (d == CacheWatcher.Delivery.REFUSED) {
        watchers.remove(i);
        if (!w.isClosed()) {
          terminatedWatchers.incrementAndGet();
          LOG.info("{}: forcing watcher close due to unresponsiveness ({} queued): {}", logName, w.queued(), w.sink());
          w.terminate();
        }
      }
    }
    return delivered;
  }

  /**
   * Adds an in-process listener: it gets the current content at once, then every change (see
   * {@link CacheListener} for the calling contract).
   */
  public void addListener(CacheListener listener) {
    dispatchLock.lock();
    try {
      replay(listener);
      listeners.add(listener);
    } finally {
      dispatchLock.unlock();
    }
  }

  private void replay(CacheListener listener) {
    String prefix = def.storagePrefix();
    WatchCache.Snapshot snap = cache.snapshot(prefix, prefixEnd(prefix), o -> true);
    try {
      listener.onReplace(snap.objects(), snap.resourceVersion());
    } catch (RuntimeException e) {
      LOG.warn("{}: listener {} failed on replace", logName, listener, e);
    }
  }

  @GuardedBy("dispatchLock")
  private void notifyListeners(WatchCacheEvent event) {
    for (CacheListener l : listeners) {
      try {
        l.onEvent(event);
      } catch (RuntimeException e) {
        LOG.warn("{}: listener {} failed on an event", logName, l, e);
      }
    }
  }

  private void scheduleTick() {
    ticker = clock.schedule(TICK, () -> {
      if (!closed) {
        tick();
        scheduleTick();
      }
    });
  }

  private void tick() {
    long now = clock.nanoTime();
    dispatchLock.lock();
    try {
      removeEndedWatchers();
      cache.evictExpired(now);
      long rv = cache.resourceVersion();
      for (CacheWatcher w : List.copyOf(watchers)) {
        w.tick(now, rv, def.apiVersion(), def.kind());
      }
    } catch (RuntimeException e) {
      LOG.warn("{}: bookmark tick failed", logName, e);
    } finally {
      dispatchLock.unlock();
    }
  }

  // ---- reads -------------------------------------------------------------------------

  /**
   * The resourceVersion a read with these options is served at, once the cache has reached
   * it: "" waits for storage's current revision, N for N, "0" does not wait (unless the cache
   * has seen no revision at all).
   */
  CompletableFuture<Long> readyFor(ListOptions options) {
    OptionalLong rv = options.resourceVersionNumber();
    if (rv.isPresent() && rv.getAsLong() == 0) {
      if (cache.resourceVersion() > 0) {
        return CompletableFuture.completedFuture(cache.resourceVersion());
      }
      // a cache at 0 has seen no revision (a resource never written since the store was empty):
      // kube answers at the store's current revision, never "0"; from the cache as it is if the
      // store cannot say (a read at "0" does not fail for that)
      return readyForCurrentRevision().exceptionally(e -> cache.resourceVersion());
    }
    if (rv.isPresent()) {
      return readyAt(rv.getAsLong());
    }
    return readyForCurrentRevision();
  }

  /** A consistent read: the store's current revision, which over etcd includes other replicas' writes. */
  private CompletableFuture<Long> readyForCurrentRevision() {
    return storage.readCurrentRevision()
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(unwrap(e) instanceof StorageException se
            ? StatusException.unavailable("cannot read the store's current revision: " + se.getMessage())
            : unwrap(e)))
        .thenCompose(this::readyAt);
  }

  private CompletableFuture<Long> readyAt(long target) {
    if (cache.resourceVersion() >= target) {
      return CompletableFuture.completedFuture(cache.resourceVersion());
    }
    requestProgress();
    CompletableFuture<Long> reached = cache.waitUntil(target);
    // ask again every 100 ms while waiting, as kube's progress requester does: a progress
    // notification sent before the storage watch reached the target revision reports an older one
    askForProgressUntil(reached);
    Clock.Cancellable timeout = clock.schedule(config.freshnessTimeout(),
        () -> reached.completeExceptionally(new TimeoutException()));
    return reached
        .whenComplete((v, e) -> timeout.cancel())
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(unwrap(e) instanceof TimeoutException
            ? StatusException.tooLargeResourceVersion(target, cache.resourceVersion()) : unwrap(e)));
  }

  /** Takes out the watchers that ended while another thread held the lock. Under {@link #dispatchLock}. */
  @GuardedBy("dispatchLock")
  private void removeEndedWatchers() {
    for (CacheWatcher w; (w = endedWatchers.poll()) != null; ) {
      watchers.remove(w);
    }
  }

  /**
   * Asks the store for progress every {@link #PROGRESS_INTERVAL} of real time until
   * {@code done}: a poll for liveness, not a measure of the server's time, so it runs on the
   * system clock even when the server's clock is a test's frozen fake (which would otherwise
   * leave a read waiting on an answer that reported an older revision).
   */
  private void askForProgressUntil(CompletableFuture<?> done) {
    Clock.system().schedule(PROGRESS_INTERVAL, () -> {
      if (!done.isDone() && !closed) {
        requestProgress();
        askForProgressUntil(done);
      }
    });
  }

  private void requestProgress() {
    Watch w = storageWatch;
    if (w != null) {
      w.requestProgress();
    }
  }

  /** A page of a list; items are the cached bytes, never re-serialized. */
  public record ListResult(List<CachedObject> items, long resourceVersion, String continueToken,
      Long remainingItemCount) {
  }

  /** Lists the objects in {@code namespace} ("" for all) that match the options. */
  public CompletableFuture<ListResult> list(String namespace, ListOptions options) {
    WatchFilter filter = new WatchFilter(namespace, options.labelSelector(), options.fieldSelector());
    String prefix = def.storagePrefix() + (namespace.isEmpty() ? "" : namespace + "/");
    OptionalLong rv = options.resourceVersionNumber();
    boolean anyVersion = rv.isPresent() && rv.getAsLong() == 0 && options.continueToken().isEmpty();
    // kube's watch cache serves resourceVersion=0 whole and ignores the limit: an informer's
    // first list (rv=0, limit=500) is one response, not hundreds of round trips.
    int limit = anyVersion ? 0 : (int) Math.min(Integer.MAX_VALUE, Math.max(0, options.limit()));
    if (!options.continueToken().isEmpty()) {
      ContinueToken token = ContinueToken.decode(options.continueToken());
      String fromKey = def.storagePrefix() + token.startKey();
      if (fromKey.compareTo(prefix) < 0 || fromKey.compareTo(prefixEnd(prefix)) >= 0) {
        // a token from another namespace's list (or forged): it cannot continue this one
        throw StatusException.badRequest("invalid continue token: continue key is not valid: "
            + io.listwatch.api.Strconv.quote(token.startKey()) + " is outside the listed namespace");
      }
      return listAt(token.rv(), prefix, fromKey, filter, limit, true);
    }
    boolean exact = options.resourceVersionMatch() == ResourceVersionMatch.EXACT
        || (limit > 0 && rv.isPresent() && rv.getAsLong() > 0
            && options.resourceVersionMatch() == ResourceVersionMatch.UNSET);
    if (exact && rv.isPresent() && rv.getAsLong() != cache.resourceVersion()) {
      return listAt(rv.getAsLong(), prefix, prefix, filter, limit, false);
    }
    return readyFor(options).thenApply(ignored -> listFromCache(prefix, prefix, filter, limit));
  }

  private ListResult listFromCache(String prefix, String fromKey, WatchFilter filter, int limit) {
    boolean selective = !filter.labels().isEverything() || !filter.fields().isEverything();
    // a page copies at most `limit` objects; the rest is only counted (kube leaves the count
    // out when selectors are set, so then it stops at the first one past the page)
    WatchCache.Page page = cache.snapshot(fromKey, prefixEnd(prefix), filter::matches,
        limit == 0 ? Integer.MAX_VALUE : limit, !selective);
    WatchCache.Snapshot snap = page.snapshot();
    if (page.rest() == 0) {
      return new ListResult(snap.objects(), snap.resourceVersion(), null, null);
    }
    String token = continueAfter(snap.resourceVersion(), snap.objects().getLast());
    return new ListResult(snap.objects(), snap.resourceVersion(), token, selective ? null : page.rest());
  }

  /** A list at a past revision (a continued page or an Exact read): from storage. */
  private CompletableFuture<ListResult> listAt(long rv, String prefix, String fromKey, WatchFilter filter,
      int limit, boolean continuing) {
    if (decoder.remote() && rv != cache.resourceVersion()) {
      // decoding waits for a conversion webhook: never on the caller's thread (an event loop)
      return CompletableFuture.supplyAsync(() -> listAtNow(rv, prefix, fromKey, filter, limit, continuing),
          CONVERSIONS).thenCompose(f -> f);
    }
    return listAtNow(rv, prefix, fromKey, filter, limit, continuing);
  }

  private CompletableFuture<ListResult> listAtNow(long rv, String prefix, String fromKey, WatchFilter filter,
      int limit, boolean continuing) {
    if (rv == cache.resourceVersion()) {
      return CompletableFuture.completedFuture(listFromCache(prefix, fromKey, filter, limit));
    }
    List<CachedObject> items = new ArrayList<>();
    String start = fromKey;
    int pageSize = limit == 0 ? FILL_PAGE : Math.max(limit + 1, 500);
    try {
      while (true) {
        RangeResult r = join(storage.range(new RangeRequest(prefix, start, pageSize, rv)));
        for (KeyValue kv : r.kvs()) {
          CachedObject o = decodeOrSkip(kv.key(), kv.modRevision(), kv.value());
          if (o != null && filter.matches(o)) {
            if (limit > 0 && items.size() == limit) {
              return CompletableFuture.completedFuture(
                  new ListResult(items, rv, continueAfter(rv, items.getLast()), null));
            }
            items.add(o);
          }
        }
        if (!r.more()) {
          return CompletableFuture.completedFuture(new ListResult(items, rv, null, null));
        }
        start = io.listwatch.storage.Keys.after(r.kvs().getLast().key());
      }
    } catch (StorageException e) {
      if (e.code() == StorageException.Code.COMPACTED) {
        return CompletableFuture.failedFuture(continuing ? StatusException.expired(
            "The provided continue parameter is too old to display a consistent list result. You can "
                + "start a new list without the continue parameter.")
            : StatusException.expired("too old resource version: " + rv + " (" + e.compactedRevision() + ")"));
      }
      if (e.code() == StorageException.Code.FUTURE_REVISION) {
        return CompletableFuture.failedFuture(StatusException.tooLargeResourceVersion(rv, e.currentRevision()));
      }
      return CompletableFuture.failedFuture(StatusException.internal(e.getMessage()));
    }
  }

  private String continueAfter(long rv, CachedObject last) {
    return new ContinueToken(rv, last.key().substring(def.storagePrefix().length()) + "\u0000").encode();
  }

  /**
   * The object {@code namespace/name}, as fresh as the options ask. Without a resourceVersion
   * (the most recent version) it is read from storage, as kube's cacher does for a GET, so a
   * watch cache running behind under load never turns a plain GET into a 504; with one, from
   * the cache once it has caught up with that version (0: whatever the cache has).
   */
  public CompletableFuture<Optional<CachedObject>> get(String namespace, String name, ListOptions options) {
    String key = def.storageKey(namespace, name);
    if (options.resourceVersionNumber().isEmpty()) {
      return storage.get(key).handle((kv, e) -> {
        if (e != null) {
          Throwable cause = unwrap(e);
          throw cause instanceof RuntimeException r && !(cause instanceof StorageException) ? r
              : StatusException.internal(cause.getMessage());
        }
        if (kv.isEmpty()) {
          return CompletableFuture.completedFuture(Optional.<CachedObject>empty());
        }
        KeyValue v = kv.get();
        return decoder.decodeAsync(v.key(), v.modRevision(), v.value()).handle((o, failed) -> {
          if (failed == null) {
            return Optional.of(o);
          }
          Throwable cause = unwrap(failed);
          throw cause instanceof UnreadableObjectException u ? StatusException.internal(u.getMessage())
              : cause instanceof RuntimeException r ? r : new CompletionException(cause);
        });
      }).thenCompose(f -> f);
    }
    return readyFor(options).thenApply(ignored -> Optional.ofNullable(cache.current(key)));
  }

  /**
   * The object {@code namespace/name} as this cache holds it now, without waiting: it may lag
   * storage. Takes no dispatch lock, so a {@link CacheListener} of any cache may call it (the
   * garbage collector looks owners up so). Empty for an object the cache does not hold.
   */
  public Optional<CachedObject> cached(String namespace, String name) {
    return Optional.ofNullable(cache.current(def.storageKey(namespace, name)));
  }

  // ---- watch -------------------------------------------------------------------------

  /**
   * Starts a watch that writes to {@code sink}. The future fails with a StatusException for a
   * resourceVersion too old (410 Expired: the caller sends it as an ERROR event) or too new.
   */
  public CompletableFuture<CacheWatcher> watch(String namespace, ListOptions options, WatchSink sink,
      long deadlineNanos) {
    WatchFilter filter = new WatchFilter(namespace, options.labelSelector(), options.fieldSelector());
    OptionalLong rv = options.resourceVersionNumber();
    boolean initialEvents = options.sendInitialEvents() != null
        ? options.sendInitialEvents()
        : rv.isEmpty() || rv.getAsLong() == 0;
    // like kube, a watch waits (bounded) for the cache to reach its starting point
    CompletableFuture<Long> ready = readyFor(options);
    return ready.thenCompose(ignored -> {
      if (dispatchLock.tryLock()) {
        try {
          return CompletableFuture.completedFuture(registerLocked(filter, options, rv, initialEvents, sink,
              deadlineNanos));
        } finally {
          dispatchLock.unlock();
        }
      }
      // the lock is busy (a dispatch, the tick, another watch starting): wait for it on a thread
      // of its own, not on the caller's, which is an event loop serving other connections
      return CompletableFuture.supplyAsync(() -> {
        dispatchLock.lock();
        try {
          return registerLocked(filter, options, rv, initialEvents, sink, deadlineNanos);
        } finally {
          dispatchLock.unlock();
        }
      }, REGISTRATIONS);
    });
  }

  @GuardedBy("dispatchLock")
  private CacheWatcher registerLocked(WatchFilter filter, ListOptions options, OptionalLong rv,
      boolean initialEvents, WatchSink sink, long deadlineNanos) {
    String prefix = def.storagePrefix() + (filter.namespace().isEmpty() ? "" : filter.namespace() + "/");
    long now = clock.nanoTime();
    BookmarkTimer timer = new BookmarkTimer(options.allowWatchBookmarks(), now,
        config.bookmarkInterval().toNanos(), deadlineNanos);
    if (closed) {
      throw StatusException.unavailable("the server is shutting down");
    }
    CacheWatcher[] self = new CacheWatcher[1];
    Runnable onClosed = () -> removeLater(self[0]);
    CacheWatcher w;
    if (initialEvents) {
      WatchCache.Snapshot snap = cache.snapshot(prefix, prefixEnd(prefix), filter::matches);
      w = new CacheWatcher(filter, sink, config.watcherQueueCapacity(), snap.resourceVersion(), timer, onClosed);
      byte[] end = Boolean.TRUE.equals(options.sendInitialEvents())
          ? sink.encoding().bookmark(def.apiVersion(), def.kind(), snap.resourceVersion(), true) : null;
      w.setInitial(snap.objects(), end);
    } else {
      long from = rv.getAsLong();
      List<WatchCacheEvent> history = cache.eventsSince(from);
      w = new CacheWatcher(filter, sink, config.watcherQueueCapacity(), from, timer, onClosed);
      w.setHistory(history);
    }
    self[0] = w;
    watchers.add(w);
    return w;
  }

  // touches watchers only when dispatchLock.isHeldByCurrentThread(), which the checker cannot see
  @SuppressWarnings("GuardedBy")
  private void removeLater(CacheWatcher w) {
    if (w == null) {
      return;
    }
    if (dispatchLock.isHeldByCurrentThread()) {
      watchers.remove(w);
    } else {
      endedWatchers.add(w); // not waiting for the lock here (an event loop may be calling)
    }
  }

  /** How many watchers are running (for tests and metrics). */
  public int watcherCount() {
    dispatchLock.lock();
    try {
      removeEndedWatchers();
      return watchers.size();
    } finally {
      dispatchLock.unlock();
    }
  }

  /** The objects the cache holds now (API Priority and Fairness's estimate of a list's work). */
  public int objectCount() {
    return cache.size();
  }

  /** Stored objects skipped so far because they could not be read; each read that met one counts. */
  public long unreadableObjects() {
    return unreadableObjects.get();
  }

  /** Watchers closed because they could not keep up. */
  public long terminatedWatchers() {
    return terminatedWatchers.get();
  }

  public long resourceVersion() {
    return cache.resourceVersion();
  }

  /** Counters and sizes for metrics; each value is read on its own (not one snapshot). */
  public CacherStats stats() {
    WatchCache.Window w = cache.window();
    return new CacherStats(watcherCount(), w.objects(), w.historyEvents(), config.historyCapacity(),
        w.oldestResumable(), w.resourceVersion(), eventsReceived.sum(), eventsDispatched.sum(),
        terminatedWatchers.get(), unreadableObjects.get());
  }

  /** Whether a watch may start: false once the cacher ends its watches (the server is shutting down). */
  public boolean acceptsWatches() {
    return !closed;
  }

  /**
   * Stops accepting watches and ends every watch normally (after what is queued). The future
   * completes when every watch has written its end: a server shutting down waits for it
   * before stopping its event loops, which would otherwise close connections first.
   */
  public CompletableFuture<Void> endWatches() {
    closed = true;
    List<CacheWatcher> open;
    dispatchLock.lock();
    try {
      open = List.copyOf(watchers);
    } finally {
      dispatchLock.unlock();
    }
    open.forEach(CacheWatcher::end);
    return CompletableFuture.allOf(open.stream().map(CacheWatcher::ended).toArray(CompletableFuture[]::new));
  }

  /**
   * Closes once the cache has caught up with the store's current revision (or the freshness
   * timeout passed, or the store could not say): for a resource that stops being served while
   * its watches are open, as a custom resource whose definition was deleted, so that they end
   * after the events of everything the store committed (the deletions of its objects), not at
   * whatever point the cache had reached. Completes when closed.
   */
  public CompletableFuture<Void> closeWhenCaughtUp() {
    return readyForCurrentRevision().handle((rv, e) -> (Void) null).thenRun(this::close);
  }

  /** Ends every watch normally (without waiting) and stops following storage. */
  @Override
  public void close() {
    endWatches();
    Clock.Cancellable t = ticker;
    if (t != null) {
      t.cancel();
    }
    Watch w = storageWatch;
    if (w != null) {
      w.close();
    }
  }

  private static String prefixEnd(String prefix) {
    return prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}

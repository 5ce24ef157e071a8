package io.listwatch.apiserver.cacher;

import io.listwatch.api.StatusException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * The current state of one resource, as of {@link #resourceVersion()}, plus the recent
 * events (the {@link EventHistory}).
 *
 * <p>Consistency: the state and the history always agree: the state is the result of
 * applying every event up to {@link #resourceVersion()}. Readers get immutable snapshots.
 *
 * <p>Thread-safe. Writes ({@link #replace}, {@link #apply}, {@link #advanceTo}) come from the
 * owning {@link Cacher}'s dispatch thread only; reads from anywhere. {@link #lock} guards
 * {@link #store}, {@link #history}, {@link #resourceVersion} and {@link #waiters}.
 */
final class WatchCache {

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final TreeMap<String, CachedObject> store = new TreeMap<>();
  private final EventHistory history;
  private long resourceVersion;
  /** Futures waiting for the cache to reach a resourceVersion, by that resourceVersion. */
  private final TreeMap<Long, List<CompletableFuture<Long>>> waiters = new TreeMap<>();

  WatchCache(int capacity, long maxAgeNanos) {
    this.history = new EventHistory(capacity, maxAgeNanos, 0);
  }

  /** An immutable view of the state at one resourceVersion. */
  record Snapshot(List<CachedObject> objects, long resourceVersion) {
  }

  /** Replaces the whole state (the initial fill, or a relist); the history starts afresh. */
  void replace(Collection<CachedObject> objects, long rv) {
    List<CompletableFuture<Long>> ready;
    lock.writeLock().lock();
    try {
      store.clear();
      for (CachedObject o : objects) {
        store.put(o.key(), o);
      }
      history.reset(rv);
      resourceVersion = rv;
      ready = readyWaiters();
    } finally {
      lock.writeLock().unlock();
    }
    ready.forEach(f -> f.complete(rv));
  }

  /** The object currently stored under {@code key}, or null. */
  CachedObject current(String key) {
    lock.readLock().lock();
    try {
      return store.get(key);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Applies one event (resourceVersions must increase). Returns the futures whose wait is
   * over; the caller completes them outside its own locks.
   */
  List<CompletableFuture<Long>> apply(WatchCacheEvent event, long nowNanos) {
    lock.writeLock().lock();
    try {
      if (event.type() == WatchCacheEvent.Type.DELETED) {
        store.remove(event.object().key());
      } else {
        store.put(event.object().key(), event.object());
      }
      history.append(event, nowNanos);
      resourceVersion = event.resourceVersion();
      return readyWaiters();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Drops the history's events older than its age bound, as appends and progress do: a resource
   * that stopped changing still lets its old versions go when they expire.
   */
  void evictExpired(long nowNanos) {
    lock.writeLock().lock();
    try {
      history.evictOlderThan(nowNanos);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Storage said every change up to {@code rv} was delivered: the cache is current at rv. */
  List<CompletableFuture<Long>> advanceTo(long rv, long nowNanos) {
    lock.writeLock().lock();
    try {
      if (rv > resourceVersion) {
        resourceVersion = rv;
      }
      history.evictOlderThan(nowNanos);
      return readyWaiters();
    } finally {
      lock.writeLock().unlock();
    }
  }

  private List<CompletableFuture<Long>> readyWaiters() {
    if (waiters.isEmpty() || waiters.firstKey() > resourceVersion) {
      return List.of();
    }
    List<CompletableFuture<Long>> ready = new ArrayList<>();
    Map<Long, List<CompletableFuture<Long>>> head = waiters.headMap(resourceVersion, true);
    head.values().forEach(ready::addAll);
    head.clear();
    return ready;
  }

  long resourceVersion() {
    lock.readLock().lock();
    try {
      return resourceVersion;
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Completes (with the cache's resourceVersion) once the cache is at or past {@code rv}.
   * The caller bounds the wait.
   */
  CompletableFuture<Long> waitUntil(long rv) {
    lock.writeLock().lock();
    try {
      if (resourceVersion >= rv) {
        return CompletableFuture.completedFuture(resourceVersion);
      }
      CompletableFuture<Long> f = new CompletableFuture<>();
      waiters.computeIfAbsent(rv, k -> new ArrayList<>()).add(f);
      f.whenComplete((v, e) -> {
        if (e != null) { // timed out or cancelled: forget it
          lock.writeLock().lock();
          try {
            List<CompletableFuture<Long>> l = waiters.get(rv);
            if (l != null && l.remove(f) && l.isEmpty()) {
              waiters.remove(rv);
            }
          } finally {
            lock.writeLock().unlock();
          }
        }
      });
      return f;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** The objects that pass {@code filter}, from {@code fromKey} on (inclusive), in key order. */
  Snapshot snapshot(String fromKey, String toKeyExclusive, Predicate<CachedObject> filter) {
    return snapshot(fromKey, toKeyExclusive, filter, Integer.MAX_VALUE, false).snapshot();
  }

  /**
   * A page of the objects that pass {@code filter}: at most {@code max} of them. With
   * {@code countRest}, also how many objects follow in the key range, counted without the
   * filter (the caller sets it only when the range alone selects); otherwise 1 if any
   * following object passes the filter, else 0.
   */
  Page snapshot(String fromKey, String toKeyExclusive, Predicate<CachedObject> filter, int max, boolean countRest) {
    lock.readLock().lock();
    try {
      Collection<CachedObject> range = toKeyExclusive == null
          ? store.tailMap(fromKey, true).values()
          : store.subMap(fromKey, true, toKeyExclusive, false).values();
      // When the range alone selects, its size (a walk of the range, no allocation) sizes the page
      // exactly and leaves the rest to subtract: a list of every object then allocates one array,
      // not the ~3x its size an ArrayList growing from 16 would. Otherwise the page grows.
      int rangeSize = countRest ? range.size() : -1;
      List<CachedObject> out = new ArrayList<>(countRest ? Math.min(max, rangeSize) : Math.min(max, 16));
      long rest = 0;
      int visited = 0;
      java.util.Iterator<CachedObject> it = range.iterator();
      while (it.hasNext() && out.size() < max) {
        CachedObject o = it.next();
        visited++;
        if (filter.test(o)) {
          out.add(o);
        }
      }
      if (countRest) { // every object left in the key range counts: the caller's filter is the range
        rest = rangeSize - visited;
      } else {
        while (it.hasNext() && rest == 0) {
          if (filter.test(it.next())) {
            rest = 1;
          }
        }
      }
      return new Page(new Snapshot(out, resourceVersion), rest);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A snapshot page and how many matching objects follow it (at least 1 if any, when not counted). */
  record Page(Snapshot snapshot, long rest) {
  }

  /**
   * The events after {@code rv}, for a watch resuming there.
   *
   * @throws StatusException 410 Expired when {@code rv} is older than the history
   */
  List<WatchCacheEvent> eventsSince(long rv) {
    lock.readLock().lock();
    try {
      long oldest = history.oldestResumable();
      if (rv < oldest) {
        throw StatusException.expired("too old resource version: " + rv + " (" + oldest + ")");
      }
      return history.since(rv);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Sizes and the resumable range, for metrics. */
  record Window(int objects, int historyEvents, long oldestResumable, long resourceVersion) {
  }

  Window window() {
    lock.readLock().lock();
    try {
      return new Window(store.size(), history.size(), history.oldestResumable(), resourceVersion);
    } finally {
      lock.readLock().unlock();
    }
  }

  int size() {
    lock.readLock().lock();
    try {
      return store.size();
    } finally {
      lock.readLock().unlock();
    }
  }
}

package io.listwatch.storage.memory;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.WatchEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The data of a {@link MemoryStorage}: every key's retained versions, the change log, the
 * revision counter and the compacted revision. It plays the part a directory plays for the
 * embedded RocksDB store: a store's data lives exactly as long as this object, and a
 * "restart" is a new store opened on the data the closed one left behind:
 *
 * <pre>{@code
 * MemoryData data = new MemoryData();
 * MemoryStorage first = MemoryStorage.builder().data(data).open();
 * ...
 * first.close();
 * MemoryStorage second = MemoryStorage.builder().data(data).open(); // same keys, revision, history
 * }</pre>
 *
 * <p>Like a locked directory, the data can be open in one store at a time: opening a second
 * store on it before the first is closed fails with {@code UNAVAILABLE}. Watches belong to
 * the store, not to the data, and end when their store closes.
 *
 * <p>Thread-safe: every field is guarded by {@code lock}, which the store open on the data
 * also uses for its own state (one lock per data, so nothing needs a lock order beyond
 * "a watch's delivery lock, then this lock"). The package-private methods that read or change
 * the data require the caller to hold the lock, and assert it; {@code revision()} and
 * {@code compactedRevision()} are volatile reads that need no lock.
 */
public final class MemoryData {

  /**
   * Guards everything in this object and the state of the store open on it and of that
   * store's watches. Lock order: a watch's delivery lock may be held when taking this lock,
   * never the reverse; no listener is ever called under this lock.
   */
  final ReentrantLock lock = new ReentrantLock();

  /**
   * Every key with retained versions, in UTF-8 byte order; a key leaves when compaction
   * leaves it nothing (it was deleted at or below the compacted revision).
   */
  @GuardedBy("lock")
  private final TreeMap<String, KeyHistory> keys = new TreeMap<>(Utf8Order.INSTANCE);
  /** The changes of revisions {@code compacted + 1 .. revision}, one each. */
  @GuardedBy("lock")
  private final RevisionLog log = new RevisionLog(1);
  /** The last committed revision. Written under lock, read anywhere. */
  private volatile long revision;
  /** The oldest readable revision. Written under lock, read anywhere. */
  private volatile long compacted;
  /** The open store using this data, or null. */
  @GuardedBy("lock")
  private MemoryStorage owner;

  /** Empty data: revision 0, nothing compacted. */
  public MemoryData() {
  }

  // ---- ownership ----------------------------------------------------------------------

  /** Makes {@code store} the one store open on this data. */
  @GuardedBy("lock")
  void attach(MemoryStorage store) {
    assert lock.isHeldByCurrentThread();
    if (owner != null) {
      throw StorageException.unavailable("this MemoryData is open in another MemoryStorage; "
          + "close that one first", null);
    }
    owner = store;
  }

  @GuardedBy("lock")
  void detach(MemoryStorage store) {
    assert lock.isHeldByCurrentThread();
    if (owner == store) {
      owner = null;
    }
  }

  // ---- reads ---------------------------------------------------------------------------

  long revision() {
    return revision;
  }

  long compactedRevision() {
    return compacted;
  }

  /** The version of {@code key} at {@code at} (a retained revision), or null. */
  @GuardedBy("lock")
  KeyValue get(String key, long at) {
    assert lock.isHeldByCurrentThread();
    KeyHistory history = keys.get(key);
    return history == null ? null : history.at(at);
  }

  /** The live keys under {@code prefix}, from {@code start} on, at {@code at}. */
  @GuardedBy("lock")
  RangeResult range(String prefix, String start, int limit, long at) {
    assert lock.isHeldByCurrentThread();
    String from = Utf8Order.INSTANCE.compare(start, prefix) > 0 ? start : prefix;
    List<KeyValue> out = new ArrayList<>();
    boolean more = false;
    for (Map.Entry<String, KeyHistory> e : keys.tailMap(from, true).entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break; // the keys under a prefix are contiguous in UTF-8 order
      }
      KeyValue kv = e.getValue().at(at);
      if (kv == null) {
        continue;
      }
      if (limit > 0 && out.size() == limit) {
        more = true;
        break;
      }
      out.add(kv);
    }
    return new RangeResult(out, more, at);
  }

  /**
   * Adds the changes under {@code prefix} with revisions after {@code after} to {@code out},
   * stopping after {@code maxEvents} of them or {@code maxScan} revisions, whichever comes
   * first. {@code after} must not be below the compacted revision.
   *
   * @return the last revision looked at: every matching change up to it is now in {@code out}
   */
  @GuardedBy("lock")
  long readLog(String prefix, long after, int maxEvents, int maxScan, Collection<WatchEvent> out) {
    assert lock.isHeldByCurrentThread();
    if (after < compacted) {
      throw new IllegalStateException("log read from " + after + " below the compacted revision " + compacted);
    }
    long end = Math.min(revision, after + maxScan);
    long at = after;
    int added = 0;
    while (at < end && added < maxEvents) {
      at++;
      WatchEvent event = log.get(at);
      if (event.kv().key().startsWith(prefix)) {
        out.add(event);
        added++;
      }
    }
    return at;
  }

  /**
   * The newest revision committed at or before {@code cutoffMillis} on the store's clock, or
   * the compacted revision if no retained one was.
   */
  @GuardedBy("lock")
  long newestCommittedAtOrBefore(long cutoffMillis) {
    assert lock.isHeldByCurrentThread();
    return log.newestCommittedAtOrBefore(cutoffMillis);
  }

  // ---- writes --------------------------------------------------------------------------

  /** Creates {@code key} at the next revision, or fails with KEY_EXISTS. */
  @GuardedBy("lock")
  WatchEvent create(String key, byte[] value, long nowMillis) {
    assert lock.isHeldByCurrentThread();
    KeyHistory history = keys.get(key);
    KeyValue current = history == null ? null : history.latest();
    if (current != null) {
      throw StorageException.keyExists(key, current);
    }
    long rev = revision + 1;
    KeyValue kv = new KeyValue(key, value, rev, rev, 1);
    return commit(history, new WatchEvent(WatchEvent.Type.PUT, kv, null), nowMillis);
  }

  /** Replaces {@code key}'s value at the next revision if its mod revision is as expected. */
  @GuardedBy("lock")
  WatchEvent update(String key, byte[] value, long expectedModRevision, long nowMillis) {
    assert lock.isHeldByCurrentThread();
    KeyHistory history = keys.get(key);
    KeyValue current = guarded(key, history, expectedModRevision);
    KeyValue kv = new KeyValue(key, value, current.createRevision(), revision + 1,
        current.version() + 1);
    return commit(history, new WatchEvent(WatchEvent.Type.PUT, kv, current), nowMillis);
  }

  /** Deletes {@code key} at the next revision if its mod revision is as expected. */
  @GuardedBy("lock")
  WatchEvent delete(String key, long expectedModRevision, long nowMillis) {
    assert lock.isHeldByCurrentThread();
    KeyHistory history = keys.get(key);
    KeyValue current = guarded(key, history, expectedModRevision);
    KeyValue tombstone = new KeyValue(key, null, current.createRevision(), revision + 1, 0);
    return commit(history, new WatchEvent(WatchEvent.Type.DELETE, tombstone, current), nowMillis);
  }

  private static KeyValue guarded(String key, KeyHistory history, long expectedModRevision) {
    KeyValue current = history == null ? null : history.latest();
    if (current == null) {
      throw StorageException.keyNotFound(key);
    }
    if (current.modRevision() != expectedModRevision) {
      throw StorageException.conflict(key, expectedModRevision, current);
    }
    return current;
  }

  @GuardedBy("lock")
  private WatchEvent commit(KeyHistory history, WatchEvent event, long nowMillis) {
    KeyHistory h = history;
    if (h == null) {
      h = new KeyHistory();
      keys.put(event.kv().key(), h);
    }
    h.add(event.kv());
    log.append(event, nowMillis);
    revision = event.revision();
    return event;
  }

  // ---- compaction ----------------------------------------------------------------------

  /**
   * Discards history below {@code target}: reads at revisions below it find nothing to read
   * and the log starts after it. Each key's newest version at or below {@code target} stays,
   * unless it is a deletion. Only the keys changed since the last compaction are visited.
   */
  @GuardedBy("lock")
  void compact(long target) {
    assert lock.isHeldByCurrentThread();
    if (target <= compacted) {
      return;
    }
    if (target > revision) {
      throw new IllegalStateException("compaction to " + target + " beyond revision " + revision);
    }
    Set<String> touched = new HashSet<>();
    for (long r = compacted + 1; r <= target; r++) {
      touched.add(log.get(r).kv().key());
    }
    for (String key : touched) {
      KeyHistory history = keys.get(key);
      if (history != null && history.compact(target)) {
        keys.remove(key);
      }
    }
    log.dropThrough(target);
    compacted = target;
  }

  /** How many keys have retained versions, live or deleted; for tests. */
  int retainedKeys() {
    lock.lock();
    try {
      return keys.size();
    } finally {
      lock.unlock();
    }
  }

  /** How many changes the log holds; for tests. */
  int retainedChanges() {
    lock.lock();
    try {
      return log.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    lock.lock();
    try {
      return "MemoryData[revision=" + revision + " compacted=" + compacted + " keys=" + keys.size()
          + " log=" + log.size() + (owner == null ? "" : " open") + "]";
    } finally {
      lock.unlock();
    }
  }
}

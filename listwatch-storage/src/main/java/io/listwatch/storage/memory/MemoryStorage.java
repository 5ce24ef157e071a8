package io.listwatch.storage.memory;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.HistoryRetention;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Keys;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.StoreBuilder;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A {@link Storage} held in memory, for tests and for an in-memory API server on a fake
 * clock. It follows etcd's MVCC model exactly as the embedded RocksDB store does (one
 * revision counter, history for reads and watches at past revisions, guarded writes,
 * compaction) and passes the same contract suite.
 *
 * <h2>Data and restarts</h2>
 * The keys, their history, the revision and the compacted revision live in a
 * {@link MemoryData}, which plays the part of RocksDB's directory: the store's data lives
 * exactly as long as that object. {@link #builder()} makes a new, empty one unless
 * {@link Builder#data} passes one in; a restart is closing the store and opening a new one
 * on {@link #data()}. One store may have the data open at a time. "Durable" in the
 * {@link Storage} contract means: in the {@code MemoryData}, where the next store on it
 * finds it.
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Every operation runs on the caller's thread under the one lock of its
 * {@link MemoryData}, so reads are snapshots and writes are linearizable trivially;
 * every future is complete when the method returns (a dependent stage attached with a
 * non-async method runs on the caller's thread at once). Writes never wait for listeners.
 *
 * <h2>Threads</h2>
 * The store starts no thread except to deliver watch events, which must not run on the
 * writer's thread because a stuck listener may block nobody. Each watch has at most one
 * delivery run at a time, started when it has something to deliver and ending when it has
 * nothing left; it runs on the {@link Builder#watchExecutor watch executor}: by default a
 * new virtual thread named {@code listwatch-memory-watch[<prefix>]} per run. A test can pass
 * its own executor, for example one it drains by hand, to make delivery deterministic.
 *
 * <h2>Compaction and memory</h2>
 * {@link #compact} drops history at once. Besides, each write compacts what falls outside the
 * retention window: history is kept for {@link Builder#historyRetention} on the
 * {@link Builder#clock clock} or for the last {@link Builder#historyMinRevisions} revisions,
 * whichever is more (RocksDbStorage's rule, with the same defaults). There is no timer: a
 * store nobody writes to keeps its history, which only writes can grow. On a fake clock that
 * never moves nothing ever leaves the window, so history grows until the test advances the
 * clock or calls {@link #compact}. Each watch buffers at most 1,000 events; a watch that lags
 * further replays the retained history instead, and fails with {@code COMPACTED} if
 * compaction overtakes it. Live keys are bounded only by the caller, each value by
 * {@link Builder#maxValueBytes}. A value is copied on write, so a caller may reuse its
 * buffer; the values the store hands out are shared and must not be mutated.
 */
public final class MemoryStorage implements Storage {

  private final MemoryData data;
  private final int maxValueBytes;
  private final HistoryRetention retention;
  private final Clock clock;
  /** The configured watch executor, or null for a virtual thread per delivery run. */
  private final Executor watchExecutor;
  /** The watches still running. */
  @GuardedBy("data.lock")
  private final List<MemoryWatcher> watchers = new ArrayList<>();
  @GuardedBy("data.lock")
  private boolean closed;

  private MemoryStorage(Builder b) {
    data = b.data != null ? b.data : new MemoryData();
    maxValueBytes = b.maxValueBytes();
    retention = b.retention();
    clock = b.clock();
    watchExecutor = b.watchExecutor;
    data.lock.lock();
    try {
      data.attach(this);
    } finally {
      data.lock.unlock();
    }
  }

  /** Starts configuring a store; it opens on new, empty data unless {@link Builder#data} is set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The data this store is open on: pass it to the next store to model a restart. */
  public MemoryData data() {
    return data;
  }

  // ---- reads ---------------------------------------------------------------------------

  @Override
  public CompletableFuture<Optional<KeyValue>> get(String key, long revision) {
    try {
      Keys.checkKey(key);
      data.lock.lock();
      try {
        long at = readRevision(revision);
        return CompletableFuture.completedFuture(Optional.ofNullable(data.get(key, at)));
      } finally {
        data.lock.unlock();
      }
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<RangeResult> range(RangeRequest request) {
    try {
      Keys.utf8(request.prefix());
      Keys.utf8(request.startKey());
      data.lock.lock();
      try {
        long at = readRevision(request.revision());
        return CompletableFuture.completedFuture(
            data.range(request.prefix(), request.startKey(), request.limit(), at));
      } finally {
        data.lock.unlock();
      }
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The revision a read asked for, checked against the retained history. Under the data lock. */
  @GuardedBy("data.lock")
  private long readRevision(long requested) {
    checkOpen();
    long current = data.revision();
    if (requested == 0) {
      return current;
    }
    if (requested > current) {
      throw StorageException.futureRevision(requested, current);
    }
    long compacted = data.compactedRevision();
    if (requested < compacted) {
      throw StorageException.compacted(requested, compacted);
    }
    return requested;
  }

  // ---- writes --------------------------------------------------------------------------

  /** A guarded change of the data, applied under its lock. */
  private interface Change {
    /** Applies the change with {@code value} (the stored copy; null for a delete) at the clock's time. */
    WatchEvent apply(byte[] value, long nowMillis);
  }

  @Override
  @SuppressWarnings("GuardedBy") // the lambda runs in write(), under data.lock
  public CompletableFuture<KeyValue> create(String key, byte[] value) {
    Objects.requireNonNull(value, "value");
    return write(key, value, (stored, now) -> data.create(key, stored, now));
  }

  @Override
  @SuppressWarnings("GuardedBy") // the lambda runs in write(), under data.lock
  public CompletableFuture<KeyValue> update(String key, byte[] value, long expectedModRevision) {
    Objects.requireNonNull(value, "value");
    return write(key, value, (stored, now) -> data.update(key, stored, expectedModRevision, now));
  }

  @Override
  @SuppressWarnings("GuardedBy") // the lambda runs in write(), under data.lock
  public CompletableFuture<KeyValue> delete(String key, long expectedModRevision) {
    return write(key, null, (stored, now) -> data.delete(key, expectedModRevision, now));
  }

  private CompletableFuture<KeyValue> write(String key, byte[] value, Change change) {
    WatchEvent event;
    List<MemoryWatcher> toStart = new ArrayList<>();
    try {
      Keys.checkKey(key);
      byte[] stored = null;
      if (value != null) {
        Keys.checkValue(key, value, maxValueBytes);
        stored = value.clone();
      }
      data.lock.lock();
      try {
        checkOpen();
        long now = clock.millis();
        event = change.apply(stored, now);
        for (MemoryWatcher w : watchers) {
          @SuppressWarnings("GuardedBy") // w.data.lock is data.lock: a watcher shares its store's data
          boolean start = w.onCommit(event);
          if (start) {
            toStart.add(w);
          }
        }
        compactExpired(now);
      } finally {
        data.lock.unlock();
      }
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    }
    toStart.forEach(MemoryWatcher::startDelivery);
    return CompletableFuture.completedFuture(
        event.type() == WatchEvent.Type.DELETE ? event.prevKv() : event.kv());
  }

  /** Compacts to the newest revision outside both retention bounds, if any. Under the data lock. */
  @GuardedBy("data.lock")
  private void compactExpired(long nowMillis) {
    if (data.revision() - retention.minRevisions() <= data.compactedRevision()) {
      return; // nothing outside the count bound: spare the search by time
    }
    long target = retention.compactionTarget(data.revision(),
        data.newestCommittedAtOrBefore(nowMillis - retention.period().toMillis()));
    if (target > data.compactedRevision()) {
      data.compact(target);
    }
  }

  @GuardedBy("data.lock")
  private void checkOpen() {
    if (closed) {
      throw StorageException.unavailable("the store is closed", null);
    }
  }

  // ---- watches -------------------------------------------------------------------------

  @Override
  @SuppressWarnings("GuardedBy") // w.data.lock is data.lock: w is built on this store's data
  public Watch watch(String prefix, long fromRevision, WatchListener listener) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(listener, "listener");
    StorageException invalid = null;
    try {
      Keys.utf8(prefix);
    } catch (StorageException e) {
      invalid = e;
    }
    MemoryWatcher w = new MemoryWatcher(this, data, prefix, Math.max(0, fromRevision), listener,
        executorFor(prefix));
    boolean start;
    data.lock.lock();
    try {
      if (invalid != null) {
        start = w.fail(invalid);
      } else if (closed) {
        start = w.fail(StorageException.unavailable("the store is closed", null));
      } else {
        watchers.add(w);
        start = w.hasWorkAtStart();
      }
    } finally {
      data.lock.unlock();
    }
    if (start) {
      w.startDelivery();
    }
    return w;
  }

  private Executor executorFor(String prefix) {
    if (watchExecutor != null) {
      return watchExecutor;
    }
    String name = "listwatch-memory-watch[" + prefix + "]";
    return run -> Thread.ofVirtual().name(name).start(run);
  }

  /** Forgets a watch that ended. Under the data lock. */
  @GuardedBy("data.lock")
  void removeWatcher(MemoryWatcher w) {
    assert data.lock.isHeldByCurrentThread();
    watchers.remove(w);
  }

  // ---- revisions, compaction, close ----------------------------------------------------

  @Override
  public long currentRevision() {
    return data.revision();
  }

  @Override
  public long compactedRevision() {
    return data.compactedRevision();
  }

  @Override
  public CompletableFuture<Void> compact(long revision) {
    data.lock.lock();
    try {
      checkOpen();
      long current = data.revision();
      if (revision > current) {
        throw StorageException.futureRevision(revision, current);
      }
      data.compact(revision);
      return CompletableFuture.completedFuture(null);
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    } finally {
      data.lock.unlock();
    }
  }

  /**
   * Refuses further operations, ends every watch with {@code UNAVAILABLE} (delivered on its
   * executor; close does not wait for listeners) and releases the data for the next store.
   * Idempotent.
   */
  @Override
  public void close() {
    List<MemoryWatcher> toStart = new ArrayList<>();
    data.lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      StorageException error = StorageException.unavailable("the store is closed", null);
      for (MemoryWatcher w : List.copyOf(watchers)) {
        @SuppressWarnings("GuardedBy") // w.data.lock is data.lock: a watcher shares its store's data
        boolean start = w.fail(error);
        if (start) {
          toStart.add(w);
        }
      }
      data.detach(this);
    } finally {
      data.lock.unlock();
    }
    toStart.forEach(MemoryWatcher::startDelivery);
  }

  @Override
  public String toString() {
    return "MemoryStorage[" + data + "]";
  }

  /** Configures and opens a {@link MemoryStorage}. Validates every setting. */
  public static final class Builder extends StoreBuilder<Builder> {
    private MemoryData data;
    private Executor watchExecutor;

    private Builder() {
    }

    /**
     * The data to open (default: new, empty data). Passing the data of a closed store is a
     * restart: the new store has its keys, revision, history and compacted revision.
     */
    public Builder data(MemoryData data) {
      this.data = Objects.requireNonNull(data, "data");
      return this;
    }

    /**
     * Where watch deliveries run (default: a new virtual thread per delivery run, named
     * {@code listwatch-memory-watch[<prefix>]}). Each watch submits at most one task at a
     * time, which calls its listener until it has nothing left to deliver. The executor must
     * run every task it accepts; one that rejects a task ends that watch without notice. An
     * executor that runs tasks on the calling thread delivers on the writer's thread, so a
     * stuck listener then blocks that writer.
     */
    public Builder watchExecutor(Executor executor) {
      this.watchExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Opens the store.
     *
     * @throws StorageException {@code UNAVAILABLE} if another open store holds the data
     */
    public MemoryStorage open() {
      return new MemoryStorage(this);
    }
  }
}

package io.listwatch.storage.rocksdb;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Keys;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.StoreBuilder;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The embedded {@link Storage}: MVCC over RocksDB in one directory, with group commit,
 * history for reads at past revisions and watches from past revisions, and background
 * compaction. See the package documentation for the layout and the threads.
 *
 * <p>Open with {@link #builder(Path)}. One process may open a directory at a time (RocksDB
 * locks it). Thread-safe.
 */
public final class RocksDbStorage implements Storage {

  private final MvccDb db;
  private final WatcherHub hub;
  private final Committer committer;
  private final Compactor compactor;
  private final int maxValueBytes;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RocksDbStorage(Builder b) {
    db = new MvccDb(b.dir);
    try {
      long revision = db.readRevision();
      Map<String, Committer.KeyMeta> index = new HashMap<>();
      ConcurrentSkipListMap<Long, Long> times = new ConcurrentSkipListMap<>();
      db.loadIndex(index, times);
      hub = new WatcherHub(revision);
      committer = new Committer(db, hub, b.clock(), index, times, revision);
      compactor = new Compactor(db, committer::committedRevision, times, b.retention(), b.compactionInterval,
          b.clock());
      maxValueBytes = b.maxValueBytes();
      committer.start();
      compactor.start();
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** Starts configuring a store in {@code dir} (created if missing). */
  public static Builder builder(Path dir) {
    return new Builder(dir);
  }

  @Override
  public CompletableFuture<Optional<KeyValue>> get(String key, long revision) {
    try {
      byte[] keyBytes = Keys.checkKey(key);
      long at = readRevision(revision);
      KeyValue kv = db.get(key, keyBytes, at);
      checkNotCompactedSince(at);
      return CompletableFuture.completedFuture(Optional.ofNullable(kv));
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<RangeResult> range(RangeRequest request) {
    try {
      byte[] prefix = Keys.utf8(request.prefix());
      byte[] start = Keys.utf8(request.startKey());
      long at = readRevision(request.revision());
      RangeResult result = db.range(prefix, start, request.limit(), at);
      checkNotCompactedSince(at);
      return CompletableFuture.completedFuture(result);
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<KeyValue> create(String key, byte[] value) {
    return write(Committer.WriteOp.Kind.CREATE, key, value, 0);
  }

  @Override
  public CompletableFuture<KeyValue> update(String key, byte[] value, long expectedModRevision) {
    return write(Committer.WriteOp.Kind.UPDATE, key, value, expectedModRevision);
  }

  @Override
  public CompletableFuture<KeyValue> delete(String key, long expectedModRevision) {
    return write(Committer.WriteOp.Kind.DELETE, key, null, expectedModRevision);
  }

  private CompletableFuture<KeyValue> write(Committer.WriteOp.Kind kind, String key, byte[] value,
      long expectedModRevision) {
    try {
      byte[] keyBytes = Keys.checkKey(key);
      if (kind != Committer.WriteOp.Kind.DELETE) {
        Keys.checkValue(key, value, maxValueBytes);
      }
      return committer.submit(kind, key, keyBytes, value, expectedModRevision);
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public Watch watch(String prefix, long fromRevision, WatchListener listener) {
    Objects.requireNonNull(listener, "listener");
    byte[] prefixBytes;
    try {
      prefixBytes = Keys.utf8(prefix);
    } catch (StorageException e) {
      listener.onError(e);
      return NO_WATCH;
    }
    Watcher w = new Watcher(hub, db, prefixBytes, prefix, Math.max(0, fromRevision), listener,
        compactor::compacted);
    if (!hub.register(w)) {
      listener.onError(StorageException.unavailable("the store is closed", null));
      return NO_WATCH;
    }
    w.start();
    return w;
  }

  private static final Watch NO_WATCH = new Watch() {
    @Override
    public void requestProgress() {
    }

    @Override
    public void close() {
    }
  };

  @Override
  public long currentRevision() {
    return committer.committedRevision();
  }

  @Override
  public long compactedRevision() {
    return compactor.compacted();
  }

  @Override
  public CompletableFuture<Void> compact(long revision) {
    if (closed.get()) {
      return CompletableFuture.failedFuture(StorageException.unavailable("the store is closed", null));
    }
    return compactor.compact(revision);
  }

  /** The revision a read asked for, checked against the retained history. */
  private long readRevision(long requested) {
    if (closed.get()) {
      throw StorageException.unavailable("the store is closed", null);
    }
    long current = committer.committedRevision();
    if (requested == 0) {
      return current;
    }
    if (requested > current) {
      throw StorageException.futureRevision(requested, current);
    }
    long compacted = compactor.compacted();
    if (requested < compacted) {
      throw StorageException.compacted(requested, compacted);
    }
    return requested;
  }

  /** A compaction that started during a read may have removed what it read. */
  private void checkNotCompactedSince(long revision) {
    long compacted = compactor.compacted();
    if (revision < compacted) {
      throw StorageException.compacted(revision, compacted);
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    committer.close();
    hub.close();
    compactor.close();
    db.close();
  }

  /** Configures and opens a {@link RocksDbStorage}. Validates every setting. */
  public static final class Builder extends StoreBuilder<Builder> {
    private final Path dir;
    private Duration compactionInterval = Duration.ofSeconds(30);

    private Builder(Path dir) {
      this.dir = Objects.requireNonNull(dir, "dir");
    }

    /** How often the background compactor looks for expired history (default 30 s). */
    public Builder compactionInterval(Duration interval) {
      require(!interval.isNegative() && !interval.isZero(), "compactionInterval must be positive: " + interval);
      this.compactionInterval = interval;
      return this;
    }

    /**
     * Opens the store, recovering it if the last process died.
     *
     * @throws StorageException {@code UNAVAILABLE} if the directory cannot be opened (for
     *     example, another process holds it)
     */
    public RocksDbStorage open() {
      return new RocksDbStorage(this);
    }
  }
}

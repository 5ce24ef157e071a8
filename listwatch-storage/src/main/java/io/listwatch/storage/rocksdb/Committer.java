package io.listwatch.storage.rocksdb;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.WatchEvent;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer: group commit of queued writes.
 *
 * <h2>Design</h2>
 * Writers enqueue a {@link WriteOp} and get a future. The committer thread takes everything
 * queued (up to {@link #MAX_BATCH_OPS} ops or {@link #MAX_BATCH_BYTES} bytes), validates each
 * op in order against the index of live keys (so a batch may hold several ops on one key),
 * assigns consecutive revisions to the ops that pass, and writes the whole group as one
 * RocksDB write batch with a synced WAL. Only then does it publish the new revision, hand the
 * events to the {@link WatcherHub} and complete the futures. While a sync runs, new writes
 * queue up and form the next group, so one fsync serves many writes.
 *
 * <h2>Threads</h2>
 * {@link #index}, {@link #nextRevision} and {@link #lastTimeSample} are confined to the
 * committer thread (filled before it starts). {@link #committedRevision} is written by it
 * and read by anyone. {@link #submit} is thread-safe; {@link #closeLock} makes close and
 * submit mutually exclusive, so no op is enqueued after the committer decided to drain and
 * stop.
 *
 * <h2>Failure</h2>
 * If RocksDB fails a write, the group is failed with UNAVAILABLE, nothing of it is applied
 * or published, and the store refuses all later writes: after a WAL error the on-disk state
 * is unknown until a restart recovers it.
 */
final class Committer implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Committer.class);

  /** The most writes waiting for the committer; beyond it writes fail fast. */
  static final int MAX_PENDING = 65_536;
  static final int MAX_BATCH_OPS = 4_096;
  static final long MAX_BATCH_BYTES = 16L << 20;
  private static final byte[] EMPTY = new byte[0];

  /** Where the index keeps a live key: enough to validate a guarded write. */
  record KeyMeta(long createRevision, long modRevision, long version) {
  }

  /** One queued write. */
  record WriteOp(Kind kind, String key, byte[] keyBytes, byte[] value, long expectedModRevision,
      CompletableFuture<KeyValue> future) {
    enum Kind { CREATE, UPDATE, DELETE }
  }

  /** The state of a key as the ops earlier in the same group left it. */
  private record Staged(KeyMeta meta, byte[] value) {
  }

  private final MvccDb db;
  private final WatcherHub hub;
  private final Clock clock;
  private final NavigableMap<Long, Long> times;
  private final Map<String, KeyMeta> index;
  private final BlockingQueue<WriteOp> queue = new LinkedBlockingQueue<>(MAX_PENDING);
  private final ReadWriteLock closeLock = new ReentrantReadWriteLock();
  private final Thread thread;
  @GuardedBy("closeLock")
  private boolean closed;
  private volatile StorageException broken;
  private volatile long committedRevision;
  private long nextRevision;
  private long lastTimeSample;

  /**
   * @param index the live keys as loaded from disk; owned by the committer from now on
   * @param times commit-time samples (ms → revision), shared with the compactor
   */
  Committer(MvccDb db, WatcherHub hub, Clock clock, Map<String, KeyMeta> index,
      NavigableMap<Long, Long> times, long revision) {
    this.db = db;
    this.hub = hub;
    this.clock = clock;
    this.index = index;
    this.times = times;
    this.committedRevision = revision;
    this.nextRevision = revision;
    this.thread = Thread.ofPlatform().name("listwatch-storage-committer").daemon(true).unstarted(this);
  }

  void start() {
    thread.start();
  }

  long committedRevision() {
    return committedRevision;
  }

  CompletableFuture<KeyValue> submit(WriteOp.Kind kind, String key, byte[] keyBytes, byte[] value,
      long expectedModRevision) {
    CompletableFuture<KeyValue> future = new CompletableFuture<>();
    closeLock.readLock().lock();
    try {
      if (closed) {
        future.completeExceptionally(StorageException.unavailable("the store is closed", null));
      } else if (broken != null) {
        future.completeExceptionally(broken);
      } else if (!queue.offer(new WriteOp(kind, key, keyBytes, value, expectedModRevision, future))) {
        future.completeExceptionally(StorageException.unavailable(
            "too many writes waiting (" + MAX_PENDING + "); retry later", null));
      }
    } finally {
      closeLock.readLock().unlock();
    }
    return future;
  }

  @Override
  public void run() {
    List<WriteOp> group = new ArrayList<>();
    while (true) {
      WriteOp first;
      try {
        first = queue.poll(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        continue; // close() decides when to stop, not interrupts
      }
      if (first == null) {
        if (isClosed() && queue.isEmpty()) {
          return;
        }
        continue;
      }
      group.add(first);
      long bytes = first.value() == null ? 0 : first.value().length;
      WriteOp next;
      while (group.size() < MAX_BATCH_OPS && bytes < MAX_BATCH_BYTES && (next = queue.poll()) != null) {
        group.add(next);
        bytes += next.value() == null ? 0 : next.value().length;
      }
      commit(group);
      group.clear();
    }
  }

  private boolean isClosed() {
    closeLock.readLock().lock();
    try {
      return closed;
    } finally {
      closeLock.readLock().unlock();
    }
  }

  private void commit(List<WriteOp> group) {
    if (broken != null) {
      group.forEach(op -> op.future().completeExceptionally(broken));
      return;
    }
    long rev = nextRevision;
    Map<String, Staged> staged = new HashMap<>();
    List<WatchEvent> events = new ArrayList<>(group.size());
    Object[] outcomes = new Object[group.size()]; // KeyValue or StorageException per op
    long now = clock.millis();
    boolean sampleTime = false;
    try (MvccDb.Batch batch = db.newBatch()) {
      for (int i = 0; i < group.size(); i++) {
        WriteOp op = group.get(i);
        Staged cur = staged.get(op.key());
        KeyMeta meta = cur != null ? cur.meta() : index.get(op.key());
        switch (op.kind()) {
          case CREATE -> {
            if (meta != null) {
              outcomes[i] = StorageException.keyExists(op.key(), current(op, meta, cur));
              continue;
            }
            long r = ++rev;
            batch.putVersion(op.keyBytes(), r, MvccCodec.kvValue(MvccCodec.PUT, r, 1, op.value()));
            batch.putLog(r, MvccCodec.logValue(MvccCodec.PUT, r, 1, 0, op.keyBytes()));
            KeyValue kv = new KeyValue(op.key(), op.value(), r, r, 1);
            staged.put(op.key(), new Staged(new KeyMeta(r, r, 1), op.value()));
            events.add(new WatchEvent(WatchEvent.Type.PUT, kv, null));
            outcomes[i] = kv;
          }
          case UPDATE, DELETE -> {
            if (meta == null) {
              outcomes[i] = StorageException.keyNotFound(op.key());
              continue;
            }
            KeyValue prev = current(op, meta, cur);
            if (meta.modRevision() != op.expectedModRevision()) {
              outcomes[i] = StorageException.conflict(op.key(), op.expectedModRevision(), prev);
              continue;
            }
            long r = ++rev;
            if (op.kind() == WriteOp.Kind.UPDATE) {
              long version = meta.version() + 1;
              batch.putVersion(op.keyBytes(), r,
                  MvccCodec.kvValue(MvccCodec.PUT, meta.createRevision(), version, op.value()));
              batch.putLog(r, MvccCodec.logValue(MvccCodec.PUT, meta.createRevision(), version,
                  meta.modRevision(), op.keyBytes()));
              KeyValue kv = new KeyValue(op.key(), op.value(), meta.createRevision(), r, version);
              staged.put(op.key(), new Staged(new KeyMeta(meta.createRevision(), r, version), op.value()));
              events.add(new WatchEvent(WatchEvent.Type.PUT, kv, prev));
              outcomes[i] = kv;
            } else {
              batch.putVersion(op.keyBytes(), r,
                  MvccCodec.kvValue(MvccCodec.TOMBSTONE, meta.createRevision(), 0, EMPTY));
              batch.putLog(r, MvccCodec.logValue(MvccCodec.TOMBSTONE, meta.createRevision(), 0,
                  meta.modRevision(), op.keyBytes()));
              staged.put(op.key(), new Staged(null, null));
              events.add(new WatchEvent(WatchEvent.Type.DELETE,
                  new KeyValue(op.key(), EMPTY, meta.createRevision(), r, 0), prev));
              outcomes[i] = prev;
            }
          }
          default -> throw new IllegalStateException("unknown op " + op.kind());
        }
      }
      if (rev > nextRevision) {
        batch.putRevision(rev);
        if (now - lastTimeSample >= 1000) {
          batch.putTime(now, rev);
          sampleTime = true;
        }
        db.write(batch, true);
      }
    } catch (RocksDBException | StorageException | IllegalStateException e) {
      broken = StorageException.unavailable("storage write failed; the store refuses writes until "
          + "it is reopened: " + e.getMessage(), e);
      LOG.error("Committer: write of {} ops failed", group.size(), e);
      group.forEach(op -> op.future().completeExceptionally(broken));
      return;
    }
    for (Map.Entry<String, Staged> e : staged.entrySet()) {
      if (e.getValue().meta() == null) {
        index.remove(e.getKey());
      } else {
        index.put(e.getKey(), e.getValue().meta());
      }
    }
    if (sampleTime) {
      times.put(now, rev);
      lastTimeSample = now;
    }
    nextRevision = rev;
    committedRevision = rev;
    if (!events.isEmpty()) {
      hub.publish(events, rev);
    }
    for (int i = 0; i < group.size(); i++) {
      if (outcomes[i] instanceof KeyValue kv) {
        group.get(i).future().complete(kv);
      } else {
        group.get(i).future().completeExceptionally((StorageException) outcomes[i]);
      }
    }
  }

  /** The current version of the op's key, from the group's staging or from disk. */
  private KeyValue current(WriteOp op, KeyMeta meta, Staged staged) {
    if (staged != null) {
      return new KeyValue(op.key(), staged.value(), meta.createRevision(), meta.modRevision(), meta.version());
    }
    byte[] v = db.version(op.keyBytes(), meta.modRevision());
    if (v == null) {
      throw new IllegalStateException("index and disk disagree on " + op.key() + " at " + meta.modRevision());
    }
    return MvccCodec.keyValue(op.key(), meta.modRevision(), v);
  }

  /** Stops accepting writes, commits what is queued, and waits for the thread to end. */
  void close() {
    closeLock.writeLock().lock();
    try {
      closed = true;
    } finally {
      closeLock.writeLock().unlock();
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.listwatch.storage.rocksdb;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The MVCC view over one RocksDB instance: opens the column families, reads versions at a
 * revision, reads the change log, and writes batches.
 *
 * <p>Thread-safe. Every RocksDB call runs under the read side of {@link #closeLock}, and
 * {@link #close()} takes the write side, so no native call can race the release of the
 * native handles.
 */
final class MvccDb implements AutoCloseable {

  private static final byte[] META_REVISION = "revision".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] META_COMPACTED = "compacted".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] META_COMPACTED_PHYSICAL =
      "compacted-physical".getBytes(StandardCharsets.US_ASCII);

  static {
    RocksDB.loadLibrary();
  }

  private final RocksDB db;
  private final ColumnFamilyHandle meta;
  private final ColumnFamilyHandle kv;
  private final ColumnFamilyHandle log;
  private final ColumnFamilyHandle time;
  private final List<ColumnFamilyHandle> handles;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final WriteOptions syncWrite;
  private final WriteOptions asyncWrite;
  /** Read side: any native call. Write side: close. */
  private final ReadWriteLock closeLock = new ReentrantReadWriteLock();
  @GuardedBy("closeLock")
  private boolean closed;

  MvccDb(Path dir) {
    try {
      java.nio.file.Files.createDirectories(dir);
      LRUCache cache = track(new LRUCache(128L << 20));
      BlockBasedTableConfig table = new BlockBasedTableConfig()
          .setBlockCache(cache)
          .setFilterPolicy(track(new BloomFilter(10, false)))
          .setBlockSize(16 << 10);
      ColumnFamilyOptions cfOptions = track(new ColumnFamilyOptions()
          .setTableFormatConfig(table)
          .setWriteBufferSize(64L << 20)
          .setCompressionType(CompressionType.LZ4_COMPRESSION)
          .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION));
      DBOptions dbOptions = track(new DBOptions()
          .setCreateIfMissing(true)
          .setCreateMissingColumnFamilies(true)
          .setMaxBackgroundJobs(2)
          .setKeepLogFileNum(5));
      List<ColumnFamilyDescriptor> descriptors = List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
          new ColumnFamilyDescriptor(bytes("kv"), cfOptions),
          new ColumnFamilyDescriptor(bytes("log"), cfOptions),
          new ColumnFamilyDescriptor(bytes("time"), cfOptions));
      List<ColumnFamilyHandle> out = new ArrayList<>();
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, out);
      handles = List.copyOf(out);
      meta = out.get(0);
      kv = out.get(1);
      log = out.get(2);
      time = out.get(3);
      syncWrite = track(new WriteOptions().setSync(true));
      asyncWrite = track(new WriteOptions());
    } catch (RocksDBException | java.io.IOException e) {
      closeResources();
      throw StorageException.unavailable("cannot open the store at " + dir + ": " + e.getMessage(), e);
    }
  }

  private <T extends AutoCloseable> T track(T resource) {
    resources.add(resource);
    return resource;
  }

  // ---- writes -------------------------------------------------------------------------

  /** A batch that writes to this store's column families. Not thread-safe. */
  final class Batch implements AutoCloseable {
    private final WriteBatch batch = new WriteBatch();

    void putVersion(byte[] key, long revision, byte[] kvValue) throws RocksDBException {
      batch.put(kv, MvccCodec.kvKey(key, revision), kvValue);
    }

    void deleteVersion(byte[] kvKey) throws RocksDBException {
      batch.delete(kv, kvKey);
    }

    void putLog(long revision, byte[] logValue) throws RocksDBException {
      batch.put(log, MvccCodec.longBytes(revision), logValue);
    }

    void putTime(long millis, long revision) throws RocksDBException {
      batch.put(time, MvccCodec.longBytes(millis), MvccCodec.longBytes(revision));
    }

    void putRevision(long revision) throws RocksDBException {
      batch.put(meta, META_REVISION, MvccCodec.longBytes(revision));
    }

    int count() {
      return batch.count();
    }

    @Override
    public void close() {
      batch.close();
    }
  }

  Batch newBatch() {
    return new Batch();
  }

  /** Writes a batch; {@code sync} makes it durable before returning. */
  void write(Batch batch, boolean sync) throws RocksDBException {
    guarded(() -> {
      db.write(sync ? syncWrite : asyncWrite, batch.batch);
      return null;
    });
  }

  void putMeta(byte[] name, long value, boolean sync) throws RocksDBException {
    guarded(() -> {
      db.put(meta, sync ? syncWrite : asyncWrite, name, MvccCodec.longBytes(value));
      return null;
    });
  }

  void putCompacted(long revision) throws RocksDBException {
    putMeta(META_COMPACTED, revision, true);
  }

  void putCompactedPhysical(long revision) throws RocksDBException {
    putMeta(META_COMPACTED_PHYSICAL, revision, false);
  }

  /** Removes the log entries up to and including {@code revision}, and older time entries. */
  void deleteLogThrough(long revision, long timeBefore) throws RocksDBException {
    guarded(() -> {
      db.deleteRange(log, MvccCodec.longBytes(0), MvccCodec.longBytes(revision + 1));
      db.deleteRange(time, MvccCodec.longBytes(0), MvccCodec.longBytes(timeBefore));
      return null;
    });
  }

  // ---- startup reads ------------------------------------------------------------------

  long readRevision() {
    return Math.max(readMeta(META_REVISION), lastLogRevision());
  }

  long readCompacted() {
    return readMeta(META_COMPACTED);
  }

  long readCompactedPhysical() {
    return readMeta(META_COMPACTED_PHYSICAL);
  }

  private long readMeta(byte[] name) {
    return unchecked(() -> {
      byte[] v = db.get(meta, name);
      return v == null ? 0L : MvccCodec.getLong(v, 0);
    });
  }

  private long lastLogRevision() {
    return unchecked(() -> {
      try (RocksIterator it = db.newIterator(log)) {
        it.seekToLast();
        return it.isValid() ? MvccCodec.getLong(it.key(), 0) : 0L;
      }
    });
  }

  /** Fills {@code index} with the newest version of every live key, and {@code times}. */
  void loadIndex(Map<String, Committer.KeyMeta> index, NavigableMap<Long, Long> times) {
    unchecked(() -> {
      try (RocksIterator it = db.newIterator(kv)) {
        byte[] last = null;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] k = it.key();
          int len = MvccCodec.userKeyLength(k);
          if (last != null && last.length == len && Arrays.equals(last, 0, len, k, 0, len)) {
            continue; // an older version of the key just seen
          }
          last = Arrays.copyOf(k, len);
          byte[] v = it.value();
          if (!MvccCodec.isTombstone(v)) {
            index.put(MvccCodec.string(last), new Committer.KeyMeta(
                MvccCodec.getLong(v, 1), MvccCodec.kvRevision(k), MvccCodec.getLong(v, 9)));
          }
        }
      }
      try (RocksIterator it = db.newIterator(time)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          times.put(MvccCodec.getLong(it.key(), 0), MvccCodec.getLong(it.value(), 0));
        }
      }
      return null;
    });
  }

  // ---- MVCC reads ---------------------------------------------------------------------

  /** The exact {@code kv} value of {@code key} at {@code revision}, or null. */
  byte[] version(byte[] key, long revision) {
    return unchecked(() -> db.get(kv, MvccCodec.kvKey(key, revision)));
  }

  /** The newest version of {@code key} at or below {@code revision}, if it is live. */
  KeyValue get(String key, byte[] keyBytes, long revision) {
    return unchecked(() -> {
      try (RocksIterator it = db.newIterator(kv)) {
        it.seek(MvccCodec.kvKey(keyBytes, revision));
        if (!it.isValid()) {
          return null;
        }
        byte[] k = it.key();
        if (MvccCodec.userKeyLength(k) != keyBytes.length
            || !Arrays.equals(k, 0, keyBytes.length, keyBytes, 0, keyBytes.length)) {
          return null;
        }
        byte[] v = it.value();
        return MvccCodec.isTombstone(v) ? null : MvccCodec.keyValue(key, MvccCodec.kvRevision(k), v);
      }
    });
  }

  /**
   * The live keys under {@code prefix}, from {@code start} on, as of {@code revision}, read
   * from one RocksDB snapshot.
   */
  RangeResult range(byte[] prefix, byte[] start, int limit, long revision) {
    return unchecked(() -> {
      byte[] from = Arrays.compareUnsigned(start, prefix) > 0 ? start : prefix;
      byte[] end = MvccCodec.prefixEnd(prefix);
      Snapshot snapshot = db.getSnapshot();
      try (Slice upper = end == null ? null : new Slice(end);
          ReadOptions ro = new ReadOptions().setSnapshot(snapshot).setIterateUpperBound(upper);
          RocksIterator it = db.newIterator(kv, ro)) {
        List<KeyValue> out = new ArrayList<>();
        boolean more = false;
        byte[] current = null; // user key whose version at `revision` was already decided
        int skipped = 0;
        it.seek(from);
        while (it.isValid()) {
          byte[] k = it.key();
          int len = MvccCodec.userKeyLength(k);
          if (current != null && current.length == len && Arrays.equals(current, 0, len, k, 0, len)) {
            if (++skipped > 16) { // many old versions: jump to the next user key
              byte[] next = Arrays.copyOf(current, len + 1);
              next[len] = 1;
              it.seek(next);
              skipped = 0;
            } else {
              it.next();
            }
            continue;
          }
          if (MvccCodec.kvRevision(k) > revision) {
            it.next(); // a version newer than the read revision
            continue;
          }
          current = Arrays.copyOf(k, len);
          skipped = 0;
          if (Arrays.compareUnsigned(current, start) >= 0) {
            byte[] v = it.value();
            if (!MvccCodec.isTombstone(v)) {
              if (limit > 0 && out.size() == limit) {
                more = true;
                break;
              }
              out.add(MvccCodec.keyValue(MvccCodec.string(current), MvccCodec.kvRevision(k), v));
            }
          }
          it.next();
        }
        return new RangeResult(out, more, revision);
      } finally {
        db.releaseSnapshot(snapshot);
      }
    });
  }

  /**
   * Reads the changes under {@code prefix} with revisions in {@code (after, upTo]}, at most
   * {@code max} log entries scanned. Returns the events and, in {@code scannedThrough[0]},
   * the last revision scanned, so the caller can continue from it.
   */
  List<WatchEvent> readLog(byte[] prefix, long after, long upTo, int max, long[] scannedThrough) {
    return unchecked(() -> {
      List<WatchEvent> events = new ArrayList<>();
      scannedThrough[0] = after;
      Snapshot snapshot = db.getSnapshot();
      try (Slice upper = new Slice(MvccCodec.longBytes(upTo + 1));
          ReadOptions ro = new ReadOptions().setSnapshot(snapshot).setIterateUpperBound(upper);
          RocksIterator it = db.newIterator(log, ro)) {
        int scanned = 0;
        for (it.seek(MvccCodec.longBytes(after + 1)); it.isValid() && scanned < max; it.next()) {
          scanned++;
          long rev = MvccCodec.getLong(it.key(), 0);
          byte[] entry = it.value();
          scannedThrough[0] = rev;
          if (MvccCodec.logKeyHasPrefix(entry, prefix)) {
            events.add(event(rev, entry, ro));
          }
        }
        if (scanned < max) {
          scannedThrough[0] = upTo; // nothing else below upTo
        }
        return events;
      } finally {
        db.releaseSnapshot(snapshot);
      }
    });
  }

  private WatchEvent event(long rev, byte[] logEntry, ReadOptions ro) throws RocksDBException {
    byte[] keyBytes = MvccCodec.logKey(logEntry);
    String key = MvccCodec.string(keyBytes);
    long prevRev = MvccCodec.logPrevModRevision(logEntry);
    KeyValue prev = null;
    if (prevRev > 0) {
      byte[] pv = db.get(kv, ro, MvccCodec.kvKey(keyBytes, prevRev));
      if (pv == null) {
        throw new IllegalStateException("history of " + key + " at " + prevRev + " is missing");
      }
      prev = MvccCodec.keyValue(key, prevRev, pv);
    }
    if (MvccCodec.logType(logEntry) == MvccCodec.TOMBSTONE) {
      KeyValue deleted = new KeyValue(key, null, MvccCodec.logCreateRevision(logEntry), rev, 0);
      return new WatchEvent(WatchEvent.Type.DELETE, deleted, prev);
    }
    byte[] v = db.get(kv, ro, MvccCodec.kvKey(keyBytes, rev));
    if (v == null) {
      throw new IllegalStateException("history of " + key + " at " + rev + " is missing");
    }
    return new WatchEvent(WatchEvent.Type.PUT, MvccCodec.keyValue(key, rev, v), prev);
  }

  /**
   * Calls {@code visitor} with each log entry (revision, value) in {@code (after, through]},
   * for compaction.
   */
  void scanLog(long after, long through, LogVisitor visitor) throws RocksDBException {
    guarded(() -> {
      try (Slice upper = new Slice(MvccCodec.longBytes(through + 1));
          ReadOptions ro = new ReadOptions().setIterateUpperBound(upper);
          RocksIterator it = db.newIterator(log, ro)) {
        for (it.seek(MvccCodec.longBytes(after + 1)); it.isValid(); it.next()) {
          visitor.visit(MvccCodec.getLong(it.key(), 0), it.value());
        }
      }
      return null;
    });
  }

  /** Receives log entries from {@link #scanLog}. */
  interface LogVisitor {
    void visit(long revision, byte[] logValue) throws RocksDBException;
  }

  // ---- lifecycle ----------------------------------------------------------------------

  /** Runs a native call under the close lock; fails with UNAVAILABLE after close. */
  private <T> T guarded(Native<T> call) throws RocksDBException {
    closeLock.readLock().lock();
    try {
      if (closed) {
        throw StorageException.unavailable("the store is closed", null);
      }
      return call.run();
    } finally {
      closeLock.readLock().unlock();
    }
  }

  private <T> T unchecked(Native<T> call) {
    try {
      return guarded(call);
    } catch (RocksDBException e) {
      throw StorageException.unavailable("storage read failed: " + e.getMessage(), e);
    }
  }

  private interface Native<T> {
    T run() throws RocksDBException;
  }

  @Override
  public void close() {
    closeLock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        db.syncWal();
      } catch (RocksDBException e) {
        // acknowledged writes were synced when written; this only flushes compaction marks
      }
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      db.close();
      closeResources();
    } finally {
      closeLock.writeLock().unlock();
    }
  }

  private void closeResources() {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        // best effort: the process keeps running
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}

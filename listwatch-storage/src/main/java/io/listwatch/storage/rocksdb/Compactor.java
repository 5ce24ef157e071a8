package io.listwatch.storage.rocksdb;

import io.listwatch.storage.HistoryRetention;
import io.listwatch.storage.StorageException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops history older than the retention window, on its own thread.
 *
 * <h2>How</h2>
 * Compacting to revision C first records C durably and publishes it (from then on reads and
 * watches below C are refused), then deletes the versions no read at or above C can need:
 * every log entry in (previous C, C] says which version it superseded (its previous mod
 * revision), so that version goes; a tombstone at or below C goes too. Then the log entries
 * up to C go. If the process dies midway, the recorded "physical" mark is behind the logical
 * one and the next start finishes the job.
 *
 * <p>Automatic target: {@link HistoryRetention#compactionTarget}, with the commit-time samples
 * telling the newest revision older than the retention period; that is, history is kept for
 * the retention period or the last {@code minRevisions}
 * revisions, whichever is more.
 *
 * <p>Thread-safe: all compaction runs on the single compactor thread; {@link #compacted} is
 * published with a volatile write.
 */
final class Compactor implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);
  private static final int DELETE_BATCH = 1_000;

  private final MvccDb db;
  private final LongSupplier currentRevision;
  private final NavigableMap<Long, Long> times;
  private final HistoryRetention retention;
  private final Duration interval;
  private final Clock clock;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("listwatch-storage-compactor").daemon(true).unstarted(r));
  private volatile long compacted;
  private long physical; // compactor thread only

  Compactor(MvccDb db, LongSupplier currentRevision, NavigableMap<Long, Long> times,
      HistoryRetention retention, Duration interval, Clock clock) {
    this.db = db;
    this.currentRevision = currentRevision;
    this.times = times;
    this.retention = retention;
    this.interval = interval;
    this.clock = clock;
    this.compacted = db.readCompacted();
    this.physical = db.readCompactedPhysical();
  }

  void start() {
    if (physical < compacted) {
      executor.execute(() -> run(() -> purge(compacted)));
    }
    long ms = Math.max(1, interval.toMillis());
    executor.scheduleWithFixedDelay(() -> run(this::compactExpired), ms, ms, TimeUnit.MILLISECONDS);
  }

  long compacted() {
    return compacted;
  }

  CompletableFuture<Void> compact(long revision) {
    long current = currentRevision.getAsLong();
    if (revision > current) {
      return CompletableFuture.failedFuture(StorageException.futureRevision(revision, current));
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      executor.execute(() -> {
        try {
          compactTo(revision);
          done.complete(null);
        } catch (RocksDBException | RuntimeException e) {
          done.completeExceptionally(e instanceof StorageException se ? se
              : StorageException.unavailable("compaction failed: " + e.getMessage(), e));
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      done.completeExceptionally(StorageException.unavailable("the store is closed", e));
    }
    return done;
  }

  private void compactExpired() throws RocksDBException {
    Map.Entry<Long, Long> old = times.floorEntry(clock.millis() - retention.period().toMillis());
    long target = retention.compactionTarget(currentRevision.getAsLong(), old == null ? 0 : old.getValue());
    if (target > compacted) {
      LOG.debug("Compactor: compacting to {} (current {})", target, currentRevision.getAsLong());
      compactTo(target);
    }
  }

  private void compactTo(long revision) throws RocksDBException {
    if (revision <= compacted) {
      return;
    }
    db.putCompacted(revision);
    compacted = revision;
    purge(revision);
  }

  private void purge(long through) throws RocksDBException {
    long[] pending = {0};
    MvccDb.Batch[] batch = {db.newBatch()};
    try {
      db.scanLog(physical, through, (rev, entry) -> {
        long prev = MvccCodec.logPrevModRevision(entry);
        if (prev > 0) {
          batch[0].deleteVersion(MvccCodec.kvKey(MvccCodec.logKey(entry), prev));
        }
        if (MvccCodec.logType(entry) == MvccCodec.TOMBSTONE) {
          batch[0].deleteVersion(MvccCodec.kvKey(MvccCodec.logKey(entry), rev));
        }
        if (++pending[0] % DELETE_BATCH == 0) {
          db.write(batch[0], false);
          batch[0].close();
          batch[0] = db.newBatch();
        }
      });
      db.write(batch[0], false);
    } finally {
      batch[0].close();
    }
    Map.Entry<Long, Long> firstKept = times.entrySet().stream()
        .filter(e -> e.getValue() > through).findFirst().orElse(null);
    long timeBefore = firstKept == null ? clock.millis() : firstKept.getKey();
    db.deleteLogThrough(through, timeBefore);
    times.headMap(timeBefore).clear();
    db.putCompactedPhysical(through);
    physical = through;
  }

  private void run(Task task) {
    try {
      task.run();
    } catch (RocksDBException | RuntimeException e) {
      LOG.warn("Compactor: compaction failed; it is retried at the next interval", e);
    }
  }

  private interface Task {
    void run() throws RocksDBException;
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

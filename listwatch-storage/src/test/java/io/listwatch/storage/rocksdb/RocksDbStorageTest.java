package io.listwatch.storage.rocksdb;

import io.listwatch.storage.MutableClock;
import static io.listwatch.storage.StorageContract.assertFails;
import static io.listwatch.storage.StorageContract.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.StorageException.Code;
import io.listwatch.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the embedded store adds to the {@link io.listwatch.storage.Storage} contract: its
 * automatic, time-based compaction and its configurable limits. The contract itself is
 * {@link RocksDbStorageContractTest}.
 */
class RocksDbStorageTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final Duration RETENTION = Duration.ofMinutes(5);

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));

  @Test
  void backgroundCompaction_discardsHistoryOutsideRetentionWindow_keepsRevisionsInside() {
    try (RocksDbStorage storage = compactingStore()) {
      // One write a second, so the store can date each revision.
      KeyValue kv = join(storage.create("/k", bytes("old-0")));
      for (int i = 1; i < 30; i++) {
        clock.advance(Duration.ofSeconds(1));
        kv = join(storage.update("/k", bytes("old-" + i), kv.modRevision()));
      }
      long compactedBefore = storage.compactedRevision();

      clock.advance(RETENTION.multipliedBy(2));
      long firstInside = storage.currentRevision() + 1;
      for (int i = 0; i < 20; i++) {
        clock.advance(Duration.ofSeconds(1));
        kv = join(storage.update("/k", bytes("new-" + i), kv.modRevision()));
      }
      long current = storage.currentRevision();

      Await.until("compactedRevision rises above " + compactedBefore, TIMEOUT,
          storage::compactedRevision, compacted -> compacted > compactedBefore);

      long compacted = storage.compactedRevision();
      assertThat(compacted).as("compacted revision").isLessThanOrEqualTo(firstInside);
      for (long revision = firstInside; revision <= current; revision++) {
        KeyValue atRevision = join(storage.get("/k", revision)).orElseThrow();
        assertThat(atRevision.modRevision()).isEqualTo(revision);
        assertThat(join(storage.range(RangeRequest.prefix("/").atRevision(revision))).kvs())
            .containsExactly(atRevision);
      }
      if (compacted > 1) {
        assertFails(Code.COMPACTED, () -> storage.get("/k", compacted - 1));
      }
      assertThat(join(storage.get("/k"))).contains(kv);
    }
  }

  @Test
  void backgroundCompaction_keepsHistoryMinRevisions_whenAllHistoryIsOld() {
    try (RocksDbStorage storage = compactingStore()) {
      KeyValue kv = join(storage.create("/k", bytes("v0")));
      for (int i = 1; i < 40; i++) {
        clock.advance(Duration.ofSeconds(1));
        kv = join(storage.update("/k", bytes("v" + i), kv.modRevision()));
      }
      long current = storage.currentRevision();

      clock.advance(Duration.ofHours(1));
      Await.until("compactedRevision reaches " + (current - 10), TIMEOUT,
          storage::compactedRevision, compacted -> compacted >= current - 10);

      assertThat(storage.compactedRevision()).as("compacted revision, keeping 10 revisions")
          .isLessThanOrEqualTo(current - 9);
      for (long revision = current - 9; revision <= current; revision++) {
        assertThat(join(storage.get("/k", revision)).orElseThrow().modRevision())
            .isEqualTo(revision);
      }
      assertThat(join(storage.get("/k"))).contains(kv);
    }
  }

  @Test
  void newStore_startsAtRevisionZero_andItsFirstWriteTakesOne() {
    try (RocksDbStorage storage = RocksDbStorage.builder(dir).open()) {
      assertThat(storage.currentRevision()).isZero();
      assertThat(join(storage.readCurrentRevision())).isZero();
      assertThat(join(storage.create("/a", new byte[0])).modRevision()).isEqualTo(1);
    }
  }

  @Test
  void maxValueBytes_isEnforced_onCreateAndUpdate() {
    try (RocksDbStorage storage = RocksDbStorage.builder(dir).maxValueBytes(1024).open()) {
      KeyValue kv = join(storage.create("/k", new byte[1024]));
      long before = storage.currentRevision();

      StorageException onCreate = assertFails(Code.TOO_LARGE,
          () -> storage.create("/other", new byte[1025]));
      assertFails(Code.TOO_LARGE, () -> storage.update("/k", new byte[1025], kv.modRevision()));

      assertThat(onCreate.key()).contains("/other");
      assertThat(storage.currentRevision()).isEqualTo(before);
      assertThat(join(storage.get("/k"))).contains(kv);
      assertThat(join(storage.get("/other"))).isEmpty();
    }
  }

  private RocksDbStorage compactingStore() {
    return RocksDbStorage.builder(dir)
        .historyRetention(RETENTION)
        .historyMinRevisions(10)
        .compactionInterval(Duration.ofMillis(50))
        .clock(clock)
        .open();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}

package io.listwatch.storage.memory;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.MutableClock;
import static io.listwatch.storage.StorageContract.assertFails;
import static io.listwatch.storage.StorageContract.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RecordingListener;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.StorageException.Code;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * What the in-memory store adds to the {@link io.listwatch.storage.Storage} contract: its
 * data holder and restarts, deterministic delivery on a given executor, retention on an
 * injected clock, its bounded watch queues and its limits. The contract itself is
 * {@link MemoryStorageContractTest}.
 */
class MemoryStorageTest {

  private static final Duration RETENTION = Duration.ofMinutes(5);

  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
  private final ManualExecutor executor = new ManualExecutor();

  // ---- compaction and retention ----------------------------------------------------------

  @Test
  void compact_dropsHistoryBelowTheRevision_butKeepsCurrentValues() {
    try (MemoryStorage storage = MemoryStorage.builder().open()) {
      KeyValue a = join(storage.create("/a", bytes("a1")));
      a = join(storage.update("/a", bytes("a2"), a.modRevision()));
      a = join(storage.update("/a", bytes("a3"), a.modRevision()));
      KeyValue gone = join(storage.create("/gone", bytes("x")));
      join(storage.delete("/gone", gone.modRevision()));
      KeyValue b = join(storage.create("/b", bytes("b1")));
      long compactAt = storage.currentRevision();
      KeyValue a4 = join(storage.update("/a", bytes("a4"), a.modRevision()));

      join(storage.compact(compactAt));

      MemoryData data = storage.data();
      assertThat(data.retainedKeys()).as("keys left: /a and /b; /gone was deleted").isEqualTo(2);
      assertThat(data.retainedChanges()).as("changes after the compacted revision").isEqualTo(1);
      assertThat(join(storage.get("/a"))).contains(a4);
      assertThat(join(storage.get("/a", compactAt))).contains(a);
      assertThat(join(storage.get("/b"))).contains(b);
      assertThat(join(storage.get("/gone", compactAt))).isEmpty();
      assertFails(Code.COMPACTED, () -> storage.get("/a", compactAt - 1));
    }
  }

  @Test
  void writes_keepHistoryWhileTheClockStands_thenCompactWhatIsOlderThanRetention() {
    try (MemoryStorage storage = retainingStore(0)) {
      KeyValue kv = join(storage.create("/k", bytes("v0")));
      for (int i = 1; i < 1_000; i++) {
        kv = join(storage.update("/k", bytes("v" + i), kv.modRevision()));
      }
      assertThat(storage.compactedRevision()).as("compacted while the clock stood").isZero();
      long lastOld = storage.currentRevision();

      clock.advance(RETENTION);
      KeyValue next = join(storage.update("/k", bytes("new"), kv.modRevision()));

      assertThat(storage.compactedRevision()).isEqualTo(lastOld);
      assertThat(join(storage.get("/k", lastOld))).contains(kv);
      assertThat(join(storage.get("/k"))).contains(next);
      assertThat(storage.data().retainedChanges()).isEqualTo(1);
    }
  }

  @Test
  void writes_keepHistoryMinRevisions_whenAllHistoryIsOlderThanRetention() {
    try (MemoryStorage storage = retainingStore(10)) {
      KeyValue kv = join(storage.create("/k", bytes("v0")));
      for (int i = 1; i < 30; i++) {
        clock.advance(Duration.ofSeconds(1));
        kv = join(storage.update("/k", bytes("v" + i), kv.modRevision()));
      }

      clock.advance(RETENTION.multipliedBy(2));
      join(storage.update("/k", bytes("late"), kv.modRevision()));

      long current = storage.currentRevision();
      assertThat(current).isEqualTo(31);
      assertThat(storage.compactedRevision()).as("keeps the last 10 revisions").isEqualTo(current - 10);
      for (long revision = current - 10; revision <= current; revision++) {
        assertThat(join(storage.get("/k", revision)).orElseThrow().modRevision()).isEqualTo(revision);
      }
      assertFails(Code.COMPACTED, () -> storage.get("/k", current - 11));
    }
  }

  // ---- data and restarts -----------------------------------------------------------------

  @Test
  void open_failsWithUnavailable_whileAnotherStoreHasTheDataOpen() {
    MemoryData data = new MemoryData();
    MemoryStorage first = MemoryStorage.builder().data(data).open();
    KeyValue kv = join(first.create("/a", bytes("v")));

    assertThatThrownBy(() -> MemoryStorage.builder().data(data).open())
        .isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.code()).isEqualTo(Code.UNAVAILABLE));

    first.close();
    try (MemoryStorage second = MemoryStorage.builder().data(data).open()) {
      assertThat(join(second.get("/a"))).contains(kv);
      assertFails(Code.UNAVAILABLE, () -> first.create("/b", bytes("v")));
      assertThat(join(second.create("/b", bytes("v"))).modRevision()).isEqualTo(kv.modRevision() + 1);
    }
  }

  @Test
  void write_copiesTheValue_soTheCallerMayReuseItsBuffer() {
    try (MemoryStorage storage = MemoryStorage.builder().open()) {
      byte[] buffer = bytes("first");
      join(storage.create("/a", buffer));

      buffer[0] = 'X';

      assertThat(join(storage.get("/a")).orElseThrow().valueAsString()).isEqualTo("first");
    }
  }

  @Test
  void operations_completeTheirFuturesBeforeReturning() {
    try (MemoryStorage storage = MemoryStorage.builder().open()) {
      CompletableFuture<KeyValue> created = storage.create("/a", bytes("v"));
      CompletableFuture<KeyValue> exists = storage.create("/a", bytes("v"));
      CompletableFuture<?> read = storage.range(RangeRequest.prefix("/"));
      CompletableFuture<?> future = storage.get("/a", 99);
      CompletableFuture<Void> compacted = storage.compact(1);

      assertThat(List.of(created, exists, read, future, compacted)).allMatch(CompletableFuture::isDone);
      assertThat(exists).isCompletedExceptionally();
      assertThat(future).isCompletedExceptionally();
    }
  }

  @Test
  void maxValueBytes_isEnforced_onCreateAndUpdate() {
    try (MemoryStorage storage = MemoryStorage.builder().maxValueBytes(1024).open()) {
      KeyValue kv = join(storage.create("/k", new byte[1024]));

      StorageException onCreate = assertFails(Code.TOO_LARGE, () -> storage.create("/other", new byte[1025]));
      assertFails(Code.TOO_LARGE, () -> storage.update("/k", new byte[1025], kv.modRevision()));

      assertThat(onCreate.key()).contains("/other");
      assertThat(storage.currentRevision()).isEqualTo(kv.modRevision());
    }
  }

  @Test
  void builder_rejectsInvalidSettings() {
    MemoryStorage.Builder builder = MemoryStorage.builder();

    assertThatThrownBy(() -> builder.maxValueBytes(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.historyMinRevisions(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.historyRetention(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.clock(null)).isInstanceOf(NullPointerException.class);
  }

  // ---- watch delivery --------------------------------------------------------------------

  @Test
  void watch_deliversOnlyWhenItsExecutorRuns_withOneTaskPerWatch() {
    try (MemoryStorage storage = manualStore()) {
      RecordingListener listener = new RecordingListener();
      storage.watch("/w/", storage.currentRevision(), listener);
      KeyValue a = join(storage.create("/w/a", bytes("v")));
      KeyValue b = join(storage.create("/w/b", bytes("v")));
      join(storage.create("/elsewhere", bytes("v")));

      assertThat(executor.queued()).as("delivery tasks queued").isEqualTo(1);
      assertThat(listener.calls()).isZero();

      executor.runAll();

      assertThat(listener.events()).extracting(WatchEvent::kv).containsExactly(a, b);
      assertThat(listener.calls()).as("one batch").isEqualTo(1);
      listener.assertNoViolations();
    }
  }

  @Test
  void watch_lagsPastItsQueue_andFailsWithCompacted_whenCompactionOvertakesIt() {
    try (MemoryStorage storage = manualStore()) {
      long start = storage.currentRevision();
      RecordingListener listener = new RecordingListener();
      storage.watch("/lag/", start, listener);
      for (int i = 0; i < MemoryWatcher.MAX_PENDING + 500; i++) {
        join(storage.create("/lag/" + i, bytes("v")));
      }

      join(storage.compact(storage.currentRevision()));
      executor.runAll();

      List<WatchEvent> events = listener.events();
      assertThat(events).as("the queued events, delivered before the failure")
          .hasSize(MemoryWatcher.MAX_PENDING);
      assertThat(events.getFirst().revision()).isEqualTo(start + 1);
      assertThat(events.getLast().revision()).isEqualTo(start + MemoryWatcher.MAX_PENDING);
      assertThat(listener.error()).hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(Code.COMPACTED));
      listener.assertNoViolations();
    }
  }

  @Test
  void watch_keepsItsQueuedEvents_acrossCompaction() {
    try (MemoryStorage storage = manualStore()) {
      long start = storage.currentRevision();
      RecordingListener listener = new RecordingListener();
      storage.watch("/q/", start, listener);
      for (int i = 0; i < 10; i++) {
        join(storage.create("/q/" + i, bytes("v")));
      }

      join(storage.compact(storage.currentRevision()));
      executor.runAll();

      assertThat(listener.events()).hasSize(10);
      assertThat(listener.error()).isEmpty();
      listener.assertNoViolations();
    }
  }

  @Test
  void requestProgress_onLaggingWatch_comesAfterItCaughtUp() {
    try (MemoryStorage storage = manualStore()) {
      long start = storage.currentRevision();
      RecordingListener listener = new RecordingListener();
      Watch watch = storage.watch("/p/", start, listener);
      int changes = MemoryWatcher.MAX_PENDING * 2 + 10;
      for (int i = 0; i < changes; i++) {
        join(storage.create("/p/" + i, bytes("v")));
      }

      watch.requestProgress();
      executor.runAll();

      RecordingListener.Progress progress = listener.awaitProgress(storage.currentRevision());
      assertThat(progress.eventsBefore()).isEqualTo(changes);
      assertThat(progress.revision()).isEqualTo(storage.currentRevision());
      listener.assertNoViolations();
    }
  }

  @Test
  void close_endsWatchesWithUnavailable_withoutWaitingForAStuckListener() {
    MemoryStorage storage = MemoryStorage.builder().open();
    CountDownLatch release = new CountDownLatch(1);
    RecordingListener stuck = new RecordingListener().holdFirstCallUntil(release);
    storage.watch("/s/", storage.currentRevision(), stuck);
    join(storage.create("/s/a", bytes("v")));
    stuck.awaitFirstCallHeld();

    storage.close();
    assertThat(stuck.error()).as("error before the stuck call returned").isEmpty();
    release.countDown();

    assertThat(stuck.awaitError().code()).isEqualTo(Code.UNAVAILABLE);
    assertThat(stuck.events()).hasSize(1);
    stuck.assertNoViolations();
  }

  // ---- helpers ---------------------------------------------------------------------------

  private MemoryStorage retainingStore(long minRevisions) {
    return MemoryStorage.builder()
        .historyRetention(RETENTION)
        .historyMinRevisions(minRevisions)
        .clock(clock)
        .open();
  }

  private MemoryStorage manualStore() {
    return MemoryStorage.builder().watchExecutor(executor).open();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** An executor the test drains by hand, on its own thread: delivery becomes deterministic. */
  static final class ManualExecutor implements Executor {
    @GuardedBy("this")
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
      tasks.add(task);
    }

    synchronized int queued() {
      return tasks.size();
    }

    /** Runs queued tasks, and tasks they queue, until none is left. */
    void runAll() {
      while (true) {
        Runnable task;
        synchronized (this) {
          task = tasks.poll();
        }
        if (task == null) {
          return;
        }
        task.run();
      }
    }
  }
}

package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.WatchEvent.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The {@link Storage} contract: watches: order, prefixes, replay from a past revision, concurrent
 * writers, stuck listeners, progress notifications and close. Part of the contract suite every implementation runs
 * (see {@link StorageContract}); shipped in this module's test-jar.
 */
public abstract class StorageWatchContractTest extends StorageContract {

  @Test
  void watch_fromCurrentRevision_deliversPutsAndDeletesInOrder() {
    KeyValue before = create("/w/a", "before");
    RecordingListener listener = new RecordingListener();
    watch("/w/", storage.currentRevision(), listener);
    KeyValue a2 = update(before, "a2");
    KeyValue b1 = create("/w/b", "b1");
    KeyValue deleted = delete(a2);
    long deletedAt = storage.currentRevision();
    KeyValue b2 = update(b1, "b2");

    List<WatchEvent> events = listener.awaitEvents(4);

    assertThat(events).hasSize(4);
    assertThat(events.get(0)).isEqualTo(new WatchEvent(Type.PUT, a2, before));
    assertThat(events.get(1)).isEqualTo(new WatchEvent(Type.PUT, b1, null));
    assertThat(events.get(1).isCreate()).isTrue();
    WatchEvent delete = events.get(2);
    assertThat(delete.type()).isEqualTo(Type.DELETE);
    assertThat(delete.prevKv()).isEqualTo(deleted).isEqualTo(a2);
    assertThat(delete.kv().key()).isEqualTo("/w/a");
    assertThat(delete.kv().value()).isEmpty();
    assertThat(delete.kv().createRevision()).isEqualTo(before.createRevision());
    assertThat(delete.kv().modRevision()).isEqualTo(deletedAt).isEqualTo(b1.modRevision() + 1);
    assertThat(delete.revision()).isEqualTo(deletedAt);
    assertThat(events.get(3)).isEqualTo(new WatchEvent(Type.PUT, b2, b1));
    listener.assertNoViolations();
  }

  @Test
  void watch_deliversOnlyKeysUnderItsPrefix() {
    RecordingListener listener = new RecordingListener();
    watch("/a/", storage.currentRevision(), listener);
    create("/ab", "v");
    create("/a", "v");
    KeyValue inside = create("/a/x", "v");
    create("/b/x", "v");
    create("/", "v");
    KeyValue last = create("/a/last", "v");

    List<WatchEvent> events = listener.awaitRevision(last.modRevision());

    assertThat(events).extracting(WatchEvent::kv).containsExactly(inside, last);
    listener.assertNoViolations();
  }

  @Test
  void watch_fromPastRevision_replaysExactlyLaterChanges() {
    KeyValue a1 = create("/h/a", "a1");
    create("/h/b", "b1");
    long remembered = storage.currentRevision();
    KeyValue a2 = update(a1, "a2");
    KeyValue c1 = create("/h/c", "c1");
    delete(c1);
    long deletedAt = storage.currentRevision();

    RecordingListener listener = new RecordingListener();
    watch("/h/", remembered, listener);
    List<WatchEvent> events = listener.awaitRevision(deletedAt);

    assertThat(events).hasSize(3);
    assertThat(events.get(0)).isEqualTo(new WatchEvent(Type.PUT, a2, a1));
    assertThat(events.get(1)).isEqualTo(new WatchEvent(Type.PUT, c1, null));
    assertThat(events.get(2).type()).isEqualTo(Type.DELETE);
    assertThat(events.get(2).prevKv()).isEqualTo(c1);
    assertThat(events.get(2).revision()).isEqualTo(deletedAt);

    KeyValue live = create("/h/live", "x");
    assertThat(listener.awaitRevision(live.modRevision())).hasSize(4);
    listener.assertNoViolations();
  }

  @Test
  void watch_aheadOfStore_waitsForThoseRevisions() {
    long current = storage.currentRevision();
    RecordingListener listener = new RecordingListener();
    watch("/f/", current + 2, listener);
    create("/f/1", "v");
    create("/f/2", "v");
    KeyValue third = create("/f/3", "v");

    List<WatchEvent> events = listener.awaitRevision(third.modRevision());

    assertThat(events).extracting(WatchEvent::kv).containsExactly(third);
    listener.assertNoViolations();
  }

  @Test
  void watch_underConcurrentWriters_deliversEveryChangeOnceInRevisionOrder() {
    String prefix = "/cw/";
    int writerCount = 8;
    int writesPerWriter = 500;
    long start = storage.currentRevision();
    CountDownLatch quarterDone = new CountDownLatch(writerCount * writesPerWriter / 4);
    CountDownLatch halfDone = new CountDownLatch(writerCount * writesPerWriter / 2);
    CountDownLatch lateWatchOpened = new CountDownLatch(1);
    AtomicInteger changes = new AtomicInteger();
    RecordingListener fromStart = new RecordingListener();
    RecordingListener fromQuarter = new RecordingListener();
    ChangeLog log = new ChangeLog();

    watch(prefix, start, fromStart);
    // The last quarter of the changes waits for the late watch, so that it starts while writes
    // still run, however fast the store: otherwise a fast store could commit every change
    // before the test reads "quarter", and the late watch would wait for a revision that
    // never comes.
    Workers writers = startChangeWriters(prefix, writerCount, writesPerWriter, log, () -> {
      quarterDone.countDown();
      halfDone.countDown();
      if (changes.incrementAndGet() >= writerCount * writesPerWriter * 3 / 4) {
        await(lateWatchOpened);
      }
    });
    long quarter;
    try {
      await(quarterDone);
      quarter = storage.currentRevision();
      await(halfDone);
      watch(prefix, quarter, fromQuarter);
    } finally {
      lateWatchOpened.countDown();
    }
    writers.awaitDone();
    long end = storage.currentRevision();
    assertThat(end - start).as("changes committed").isEqualTo(writerCount * writesPerWriter);

    List<WatchEvent> all = fromStart.awaitRevision(end);
    List<WatchEvent> late = fromQuarter.awaitRevision(end);

    assertContiguous(all, start + 1, end);
    assertContiguous(late, quarter + 1, end);
    assertEventChain(all, true);
    assertEventChain(late, false);
    assertThat(late).isEqualTo(all.subList((int) (quarter - start), all.size()));
    log.assertMatches(all);
    fromStart.assertNoViolations();
    fromQuarter.assertNoViolations();
  }

  @Test
  void watch_startedWhileWritersRun_switchesToLiveWithoutGapOrDuplicate() {
    String prefix = "/sw/";
    int writerCount = 4;
    int writesPerWriter = 500;
    int watchCount = 38;
    int writesBetweenWatches = writerCount * writesPerWriter / (watchCount + 2);
    long start = storage.currentRevision();
    List<CountDownLatch> milestones = new ArrayList<>();
    List<CountDownLatch> opened = new ArrayList<>();
    for (int i = 1; i <= watchCount; i++) {
      milestones.add(new CountDownLatch(i * writesBetweenWatches));
      opened.add(new CountDownLatch(1));
    }
    RecordingListener fromStart = new RecordingListener();
    ChangeLog log = new ChangeLog();
    Map<Long, RecordingListener> late = new TreeMap<>();
    Random random = new Random(11);
    AtomicInteger changes = new AtomicInteger();

    watch(prefix, start, fromStart);
    // The writers run at most one milestone ahead of the watches, so that every watch starts
    // while writes still run, however fast the store: otherwise the last watches of a fast
    // store could start after the last write and wait for a revision that never comes.
    Workers writers = startChangeWriters(prefix, writerCount, writesPerWriter, log, () -> {
      milestones.forEach(CountDownLatch::countDown);
      int watchToWaitFor = changes.incrementAndGet() / writesBetweenWatches - 2;
      if (watchToWaitFor >= 0 && watchToWaitFor < watchCount) {
        await(opened.get(watchToWaitFor));
      }
    });
    try {
      for (int i = 0; i < watchCount; i++) {
        await(milestones.get(i));
        // Half start at the current revision (list, then watch), half a little in the past.
        long current = storage.currentRevision();
        long from = i % 2 == 0 ? current : Math.max(start, current - 1 - random.nextInt(200));
        RecordingListener listener = new RecordingListener();
        if (late.putIfAbsent(from, listener) == null) {
          watch(prefix, from, listener);
        }
        opened.get(i).countDown();
      }
    } finally {
      opened.forEach(CountDownLatch::countDown);
    }
    writers.awaitDone();
    long end = storage.currentRevision();

    List<WatchEvent> all = fromStart.awaitRevision(end);
    assertContiguous(all, start + 1, end);
    log.assertMatches(all);
    for (Map.Entry<Long, RecordingListener> watch : late.entrySet()) {
      long from = watch.getKey();
      List<WatchEvent> events = watch.getValue().awaitRevision(end);
      assertThat(events).as("events of the watch from revision %d", from)
          .isEqualTo(all.subList((int) (from - start), all.size()));
      watch.getValue().assertNoViolations();
    }
    assertThat(late).hasSizeGreaterThan(watchCount / 2);
    fromStart.assertNoViolations();
  }

  @Test
  void watch_stuckListener_blocksNeitherWritersNorOtherWatches() {
    assertStuckListenerBlocksNobody("/stuck/", 5_000);
  }

  /**
   * Blocks one watch's listener in its first call while {@code changes} creates commit, and
   * checks that the writers finish, that a second watch receives everything meanwhile, and
   * that the stuck watch, once released, still gets every change exactly once.
   */
  protected final void assertStuckListenerBlocksNobody(String prefix, int changes) {
    int writers = 16;
    int perWriter = changes / writers;
    long start = storage.currentRevision();
    CountDownLatch release = new CountDownLatch(1);
    RecordingListener stuck = new RecordingListener().holdFirstCallUntil(release);
    RecordingListener healthy = new RecordingListener();
    watch(prefix, start, stuck);
    watch(prefix, start, healthy);

    try {
      runConcurrently(writers, "stuck-writer", writer -> {
        for (int i = 0; i < perWriter; i++) {
          join(storage.create(prefix + writer + "/" + i, bytes("v")));
        }
      });
      long end = storage.currentRevision();
      assertThat(end - start).isEqualTo((long) writers * perWriter);
      assertContiguous(healthy.awaitRevision(end), start + 1, end);
      assertThat(stuck.events()).as("events of the stuck watch before release").isEmpty();

      release.countDown();
      List<WatchEvent> events = stuck.awaitRevision(end);

      assertContiguous(events, start + 1, end);
      assertThat(events).isEqualTo(healthy.events());
      stuck.assertNoViolations();
      healthy.assertNoViolations();
    } finally {
      release.countDown();
    }
  }

  @Test
  void watch_requestProgress_reportsRevision_afterDeliveringEarlierEvents() {
    RecordingListener listener = new RecordingListener();
    Watch watch = watch("/p/", storage.currentRevision(), listener);
    create("/p/a", "v");
    create("/p/b", "v");
    create("/p/c", "v");
    KeyValue outside = create("/elsewhere", "v");

    watch.requestProgress();
    RecordingListener.Progress progress = listener.awaitProgress(outside.modRevision());

    assertThat(progress.revision()).isGreaterThanOrEqualTo(outside.modRevision())
        .isLessThanOrEqualTo(storage.currentRevision());
    assertThat(progress.eventsBefore()).as("events delivered before the progress").isEqualTo(3);
    listener.assertNoViolations();
  }

  @Test
  void watch_requestProgress_onQuietPrefix_reportsCurrentRevision() {
    create("/elsewhere/1", "v");
    RecordingListener listener = new RecordingListener();
    Watch watch = watch("/quiet/", storage.currentRevision(), listener);
    KeyValue outside = create("/elsewhere/2", "v");

    watch.requestProgress();
    RecordingListener.Progress progress = listener.awaitProgress(outside.modRevision());

    assertThat(progress.revision()).isEqualTo(outside.modRevision());
    assertThat(listener.events()).isEmpty();
    listener.assertNoViolations();
  }

  @Test
  void watch_close_stopsFurtherCallbacks() {
    long start = storage.currentRevision();
    RecordingListener closed = new RecordingListener();
    RecordingListener witness = new RecordingListener();
    Watch watch = storage.watch("/wc/", start, closed);
    KeyValue first = create("/wc/a", "v1");
    closed.awaitRevision(first.modRevision());

    watch.close();
    int callsAtClose = closed.calls();
    watch.close();
    watch.requestProgress();
    KeyValue second = update(first, "v2");
    KeyValue third = create("/wc/b", "v1");

    watch("/wc/", start, witness);
    assertThat(witness.awaitRevision(third.modRevision())).extracting(WatchEvent::kv)
        .containsExactly(first, second, third);
    assertThat(closed.calls()).isEqualTo(callsAtClose);
    assertThat(closed.events()).extracting(WatchEvent::kv).containsExactly(first);
    closed.assertNoViolations();
  }
}

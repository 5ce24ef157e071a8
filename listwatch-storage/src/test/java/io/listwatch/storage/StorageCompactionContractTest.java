package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.StorageException.Code;
import io.listwatch.storage.WatchEvent.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The {@link Storage} contract: compaction: what stays readable, what fails with
 * {@code COMPACTED}, and how watches behave across it. Part of the contract suite every implementation runs
 * (see {@link StorageContract}); shipped in this module's test-jar.
 */
public abstract class StorageCompactionContractTest extends StorageContract {

  @Test
  void get_failsWithCompacted_belowCompactedRevision() throws Exception {
    KeyValue v1 = create("/a", "v1");
    KeyValue v2 = update(v1, "v2");
    KeyValue v3 = update(v2, "v3");
    create("/b", "x");

    compact(storage, v3.modRevision());

    assertThat(storage.compactedRevision()).isGreaterThanOrEqualTo(v3.modRevision());
    StorageException e = assertFails(Code.COMPACTED, () -> storage.get("/a", v2.modRevision()));
    assertThat(e.compactedRevision()).isGreaterThanOrEqualTo(v3.modRevision());
    assertThat(get("/a")).contains(v3);
  }

  @Test
  void range_failsWithCompacted_belowCompactedRevision() throws Exception {
    KeyValue a = create("/a", "v1");
    KeyValue a2 = update(a, "v2");
    KeyValue b = create("/b", "v1");

    compact(storage, b.modRevision());

    StorageException e = assertFails(Code.COMPACTED,
        () -> storage.range(RangeRequest.prefix("/").atRevision(a.modRevision())));
    assertThat(e.compactedRevision()).isGreaterThanOrEqualTo(b.modRevision());
    assertThat(range(RangeRequest.prefix("/")).kvs()).containsExactly(a2, b);
  }

  @Test
  void compact_keepsStateAtCompactedRevision_andLatestVersions() {
    KeyValue a = create("/c/a", "a1");
    KeyValue b = create("/c/b", "b1");
    KeyValue gone = create("/c/gone", "x");
    a = update(a, "a2");
    delete(gone);
    KeyValue late = create("/c/late", "x");
    long mid = late.modRevision();
    RangeResult atMid = range(RangeRequest.prefix("/c/").atRevision(mid));
    a = update(a, "a3");
    delete(b);
    KeyValue after = create("/c/after", "x");
    RangeResult current = range(RangeRequest.prefix("/c/"));

    join(storage.compact(mid));

    assertThat(storage.compactedRevision()).isEqualTo(mid);
    assertThat(range(RangeRequest.prefix("/c/").atRevision(mid))).isEqualTo(atMid);
    assertThat(range(RangeRequest.prefix("/c/"))).isEqualTo(current);
    assertThat(get("/c/a")).contains(a);
    assertThat(get("/c/after")).contains(after);
    assertThat(get("/c/b")).isEmpty();
    assertThat(get("/c/gone", mid)).isEmpty();
    assertFails(Code.COMPACTED, () -> storage.get("/c/a", mid - 1));
  }

  @Test
  void create_afterDeleteCompactedAway_startsNewIncarnation() {
    KeyValue old = update(create("/a", "v1"), "v2");
    delete(old);
    long compactedAt = storage.currentRevision();
    join(storage.compact(compactedAt));
    RecordingListener listener = new RecordingListener();
    watch("/", compactedAt, listener);

    KeyValue recreated = create("/a", "again");

    assertThat(recreated.version()).isEqualTo(1);
    assertThat(recreated.createRevision()).isEqualTo(compactedAt + 1);
    assertThat(get("/a")).contains(recreated);
    assertThat(get("/a", compactedAt)).isEmpty();
    assertThat(range(RangeRequest.prefix("/")).kvs()).containsExactly(recreated);
    assertThat(listener.awaitRevision(recreated.modRevision()))
        .containsExactly(new WatchEvent(Type.PUT, recreated, null));
  }

  @Test
  void compact_failsWithFutureRevision_beyondCurrentRevision() {
    create("/a", "v");
    long current = storage.currentRevision();

    assertFails(Code.FUTURE_REVISION, () -> storage.compact(current + 1));

    assertThat(storage.compactedRevision()).isLessThanOrEqualTo(current);
  }

  @Test
  void compact_atOrBelowCompactedRevision_isNoOp() {
    List<KeyValue> kvs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      kvs.add(create("/k" + i, "v"));
    }
    long compactedAt = kvs.get(3).modRevision();
    join(storage.compact(compactedAt));

    join(storage.compact(compactedAt - 2));
    join(storage.compact(compactedAt));

    assertThat(storage.compactedRevision()).isEqualTo(compactedAt);
    assertThat(get("/k3", compactedAt)).contains(kvs.get(3));
  }

  @Test
  void watch_overtakenByCompaction_failsWithCompacted_orStaysComplete() {
    String prefix = "/overtaken/";
    long start = storage.currentRevision();
    runConcurrently(8, "history-writer", writer -> {
      for (int i = 0; i < 400; i++) {
        join(storage.create(prefix + writer + "/" + i, bytes("v")));
      }
    });
    long end = storage.currentRevision();
    CountDownLatch release = new CountDownLatch(1);
    RecordingListener listener = new RecordingListener().holdFirstCallUntil(release);
    try {
      watch(prefix, start, listener);
      listener.awaitFirstCallHeld();

      join(storage.compact(end));
      release.countDown();

      List<WatchEvent> events = listener.awaitRevisionOrError(end);
      if (listener.error().isPresent()) {
        assertThat(listener.error().orElseThrow().code()).isEqualTo(Code.COMPACTED);
      } else {
        assertThat(events.get(events.size() - 1).revision()).isEqualTo(end);
      }
      assertThat(events).isNotEmpty();
      assertContiguous(events, start + 1, events.get(events.size() - 1).revision());
      listener.assertNoViolations();
    } finally {
      release.countDown();
    }
  }

  @Test
  void watch_fromRevisionBelowCompacted_failsWithCompacted_andDeliversNothing() throws Exception {
    KeyValue a = create("/wc/a", "v1");
    a = update(a, "v2");
    KeyValue b = create("/wc/b", "v1");
    compact(storage, b.modRevision());

    RecordingListener compacted = new RecordingListener();
    RecordingListener witness = new RecordingListener();
    watch("/wc/", 1, compacted);
    watch("/wc/", storage.currentRevision(), witness);
    StorageException error = compacted.awaitError();
    assertThat(error.code()).isEqualTo(Code.COMPACTED);
    assertThat(error.compactedRevision()).isGreaterThanOrEqualTo(b.modRevision());

    KeyValue later = update(a, "v3");
    witness.awaitRevision(later.modRevision());

    assertThat(compacted.events()).isEmpty();
    assertThat(compacted.calls()).isEqualTo(1);
    compacted.assertNoViolations();
  }

  @Test
  void watch_fromCompactedRevision_deliversLaterChanges() {
    KeyValue a = create("/wc/a", "v1");
    a = update(a, "v2");
    long compactedAt = storage.currentRevision();
    join(storage.compact(compactedAt));
    KeyValue a3 = update(a, "v3");

    RecordingListener listener = new RecordingListener();
    watch("/wc/", compactedAt, listener);
    List<WatchEvent> events = listener.awaitRevision(a3.modRevision());

    assertThat(events).containsExactly(new WatchEvent(Type.PUT, a3, a));
    listener.assertNoViolations();
  }

  @Test
  void watch_keepsDelivering_acrossCompaction() {
    RecordingListener listener = new RecordingListener();
    watch("/x/", storage.currentRevision(), listener);
    KeyValue a = create("/x/a", "v1");
    listener.awaitRevision(a.modRevision());
    join(storage.compact(storage.currentRevision()));
    KeyValue a2 = update(a, "v2");

    List<WatchEvent> events = listener.awaitRevision(a2.modRevision());

    assertThat(events).containsExactly(
        new WatchEvent(Type.PUT, a, null), new WatchEvent(Type.PUT, a2, a));
    listener.assertNoViolations();
  }
}

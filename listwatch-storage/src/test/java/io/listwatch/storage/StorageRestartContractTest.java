package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.listwatch.storage.StorageException.Code;
import io.listwatch.storage.WatchEvent.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link Storage} contract: closing and restarting a store: closed stores fail with
 * {@code UNAVAILABLE}, restarted ones keep data, revisions and history. Part of the contract suite every implementation runs
 * (see {@link StorageContract}); shipped in this module's test-jar.
 */
public abstract class StorageRestartContractTest extends StorageContract {

  @Test
  void close_endsWatchesWithUnavailable() {
    RecordingListener listener = new RecordingListener();
    storage.watch("/x/", storage.currentRevision(), listener);
    KeyValue a = create("/x/a", "v");
    listener.awaitRevision(a.modRevision());

    storage.close();

    assertThat(listener.awaitError().code()).isEqualTo(Code.UNAVAILABLE);
    listener.assertNoViolations();
  }

  @Test
  void close_failsLaterOperationsWithUnavailable() {
    KeyValue a = create("/a", "v");

    storage.close();

    assertFails(Code.UNAVAILABLE, () -> storage.get("/a"));
    assertFails(Code.UNAVAILABLE, () -> storage.get("/a", a.modRevision()));
    assertFails(Code.UNAVAILABLE, () -> storage.range(RangeRequest.prefix("/")));
    assertFails(Code.UNAVAILABLE, () -> storage.create("/b", bytes("v")));
    assertFails(Code.UNAVAILABLE, () -> storage.update("/a", bytes("v2"), a.modRevision()));
    assertFails(Code.UNAVAILABLE, () -> storage.delete("/a", a.modRevision()));
    assertFails(Code.UNAVAILABLE, () -> storage.compact(a.modRevision()));
    RecordingListener listener = new RecordingListener();
    try {
      storage.watch("/", 0, listener);
      assertThat(listener.awaitError().code()).isEqualTo(Code.UNAVAILABLE);
    } catch (StorageException e) {
      assertThat(e.code()).isEqualTo(Code.UNAVAILABLE);
    }
  }

  @Test
  void close_isIdempotent() {
    create("/a", "v");

    storage.close();

    assertThatCode(storage::close).doesNotThrowAnyException();
  }

  @Test
  void restart_keepsDataVersionsAndHistory() throws Exception {
    KeyValue a1 = create("/a", "v1");
    KeyValue a2 = update(a1, "v2");
    KeyValue b = create("/b", "v1");
    delete(create("/c", "v1"));
    KeyValue a3 = update(a2, "v3");
    long last = storage.currentRevision();

    restartStorage();

    assertThat(storage.currentRevision()).isEqualTo(last);
    assertThat(get("/a")).contains(a3);
    assertThat(get("/b")).contains(b);
    assertThat(get("/c")).isEmpty();
    assertThat(get("/a", a1.modRevision())).contains(a1);
    assertThat(range(RangeRequest.prefix("/")).kvs()).containsExactly(a3, b);
    KeyValue next = create("/d", "v");
    assertThat(next.modRevision()).isEqualTo(last + 1);
    KeyValue a4 = update(a3, "v4");
    assertThat(a4.version()).isEqualTo(4);
    assertThat(a4.createRevision()).isEqualTo(a1.createRevision());
  }

  @Test
  void restart_keepsRevision_whenLastChangesWereDeletesCompactedAway() throws Exception {
    KeyValue a = create("/a", "v");
    KeyValue b = create("/b", "v");
    delete(b);
    delete(a);
    long last = storage.currentRevision();
    join(storage.compact(last));

    restartStorage();

    assertThat(storage.currentRevision()).isEqualTo(last);
    assertThat(range(RangeRequest.prefix("/")).kvs()).isEmpty();
    assertThat(create("/a", "again").modRevision()).isEqualTo(last + 1);
  }

  @Test
  void restart_keepsCompactedRevision() throws Exception {
    KeyValue a = create("/a", "v1");
    KeyValue a2 = update(a, "v2");
    create("/b", "v1");
    long compactedAt = storage.currentRevision();
    join(storage.compact(compactedAt));

    restartStorage();

    assertThat(storage.compactedRevision()).isEqualTo(compactedAt);
    assertFails(Code.COMPACTED, () -> storage.get("/a", a.modRevision()));
    assertThat(get("/a", compactedAt)).contains(a2);
  }

  @Test
  void watch_fromRevisionBeforeRestart_replaysLaterChanges() throws Exception {
    KeyValue a1 = create("/h/a", "v1");
    long remembered = storage.currentRevision();
    KeyValue a2 = update(a1, "v2");
    KeyValue b = create("/h/b", "v1");
    delete(b);

    restartStorage();
    KeyValue c = create("/h/c", "v1");

    RecordingListener listener = new RecordingListener();
    watch("/h/", remembered, listener);
    List<WatchEvent> events = listener.awaitRevision(c.modRevision());

    assertThat(events).hasSize(4);
    assertThat(events.get(0)).isEqualTo(new WatchEvent(Type.PUT, a2, a1));
    assertThat(events.get(1)).isEqualTo(new WatchEvent(Type.PUT, b, null));
    assertThat(events.get(2).type()).isEqualTo(Type.DELETE);
    assertThat(events.get(2).prevKv()).isEqualTo(b);
    assertThat(events.get(3)).isEqualTo(new WatchEvent(Type.PUT, c, null));
    assertContiguous(events, remembered + 1, c.modRevision());
    listener.assertNoViolations();
  }
}

package io.listwatch.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RecordingListener;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the etcd store adds to the contract: riding out an etcd restart, and compaction of its own. */
@EndToEnd
class EtcdStorageTest {

  @TempDir
  Path dir;
  private EtcdServer etcd;
  private EtcdStorage storage;

  @BeforeEach
  void start() throws Exception {
    etcd = EtcdServer.start(dir);
    storage = EtcdStorage.builder(List.of(etcd.endpoint())).compactionInterval(Duration.ZERO).open();
  }

  @AfterEach
  void stop() throws Exception {
    if (storage != null) {
      storage.close();
    }
    etcd.close();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A watch that starts far behind is replayed by etcd from its history; etcd before 3.4.31
   * and 3.5.13 (etcd issue 17507) answers a progress request during the replay with its
   * current revision. Believed, that told the cacher it had every change it had not yet got
   * (the chaos run's stale consistent list). Every progress this store reports must come after
   * every event up to its revision.
   */
  @Test
  void progressRequestedDuringAReplay_neverRunsAheadOfTheEvents() throws Exception {
    java.util.Map<String, Long> revisions = new java.util.HashMap<>();
    KeyValue first = storage.create("/p/k0", bytes("v")).join();
    revisions.put("/p/k0", first.modRevision());
    KeyValue last = first;
    for (int i = 1; i < 1_000; i++) {
      String key = "/p/k" + (i % 20);
      Long previous = revisions.get(key);
      last = previous == null ? storage.create(key, bytes("v" + i)).join()
          : storage.update(key, bytes("v" + i), previous).join();
      revisions.put(key, last.modRevision());
    }
    RecordingListener listener = new RecordingListener();
    Watch watch = storage.watch("/p/", first.modRevision() - 1, listener);
    watch.requestProgress();
    watch.requestProgress();
    List<io.listwatch.storage.WatchEvent> events = listener.awaitRevision(last.modRevision());
    watch.requestProgress();
    listener.awaitProgress(last.modRevision());
    for (RecordingListener.Progress p : listener.progress()) {
      long upTo = events.stream().filter(e -> e.revision() <= p.revision()).count();
      assertThat(p.eventsBefore()).as("events delivered before progress %d", p.revision()).isGreaterThanOrEqualTo(
          (int) upTo);
    }
    listener.assertNoViolations();
    watch.close();
  }

  @Test
  void watch_ridesOutAnEtcdRestart_deliveringEveryChangeOnce() throws Exception {
    RecordingListener listener = new RecordingListener();
    Watch watch = storage.watch("/w/", storage.currentRevision(), listener);
    KeyValue before = storage.create("/w/before", bytes("v")).join();
    listener.awaitRevision(before.modRevision());

    etcd.restart();
    KeyValue after = storage.create("/w/after", bytes("v")).join();
    KeyValue updated = storage.update("/w/after", bytes("v2"), after.modRevision()).join();

    assertThat(listener.awaitRevision(updated.modRevision())).extracting(e -> e.kv())
        .containsExactly(before, after, updated);
    KeyValue elsewhere = storage.create("/elsewhere", bytes("v")).join();
    watch.requestProgress();
    assertThat(listener.awaitProgress(elsewhere.modRevision()).revision()).isEqualTo(elsewhere.modRevision());
    KeyValue last = storage.create("/w/last", bytes("v")).join();
    assertThat(listener.awaitRevision(last.modRevision())).last().extracting(e -> e.kv()).isEqualTo(last);
    listener.assertNoViolations();
    watch.close();
  }

  @Test
  void range_answersMoreThanGrpcsDefaultMessageSize() {
    byte[] value = new byte[1024 * 1024];
    for (int i = 0; i < 6; i++) {
      storage.create("/big/" + i, value).join();
    }

    assertThat(storage.range(io.listwatch.storage.RangeRequest.prefix("/big/")).join().kvs()).hasSize(6);
  }

  @Test
  void progressNotifyIsReliable_fromTheEtcdReleasesThatFixedIssues15220And17507() {
    assertThat(EtcdStorage.reliableProgressNotify("3.4.23")).isFalse();
    assertThat(EtcdStorage.reliableProgressNotify("3.4.30")).isFalse();
    assertThat(EtcdStorage.reliableProgressNotify("3.5.7")).isFalse();
    assertThat(EtcdStorage.reliableProgressNotify("3.5.12")).isFalse();
    assertThat(EtcdStorage.reliableProgressNotify("3.4.31")).isTrue();
    assertThat(EtcdStorage.reliableProgressNotify("3.5.13")).isTrue();
    assertThat(EtcdStorage.reliableProgressNotify("3.6.0")).isTrue();
  }

  @Test
  void open_failsWithUnavailable_namingTheEndpoint_whenNoEtcdAnswers() throws Exception {
    java.net.URI nowhere = etcd.endpoint();
    storage.close();
    storage = null;
    etcd.stop();

    assertThatThrownBy(() -> EtcdStorage.builder(List.of(nowhere)).requestTimeout(Duration.ofSeconds(2)).open())
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.code()).isEqualTo(StorageException.Code.UNAVAILABLE);
          assertThat(e.getMessage()).contains(nowhere.toString());
        });
  }

  @Test
  void operations_failWithUnavailable_whileEtcdIsDown_andSucceedOnceItIsBack() throws Exception {
    EtcdStorage quick = EtcdStorage.builder(List.of(etcd.endpoint())).compactionInterval(Duration.ZERO)
        .requestTimeout(Duration.ofSeconds(2)).open();
    try {
      KeyValue a = quick.create("/a", bytes("v")).join();
      etcd.stop();

      assertThatThrownBy(() -> quick.update("/a", bytes("v2"), a.modRevision()).join())
          .hasCauseInstanceOf(StorageException.class)
          .cause().satisfies(e -> assertThat(((StorageException) e).code()).isEqualTo(StorageException.Code.UNAVAILABLE));

      etcd.restart();
      // the client reconnects after a back-off of its own; a request may fail until it has
      AtomicReference<Optional<KeyValue>> back = new AtomicReference<>();
      Await.until("etcd answers again", Duration.ofSeconds(20), () -> {
        try {
          back.set(quick.get("/a").join());
          return true;
        } catch (CompletionException e) {
          assertThat(e.getCause()).isInstanceOf(StorageException.class);
          return false;
        }
      });
      assertThat(back.get()).as("the refused update was not sent later").contains(a);
    } finally {
      quick.close();
    }
  }

  @Test
  void compactor_compactsToTheRevisionSeenOneIntervalEarlier() throws Exception {
    EtcdStorage compacting = EtcdStorage.builder(List.of(etcd.endpoint()))
        .compactionInterval(Duration.ofMillis(200)).open();
    try {
      KeyValue first = compacting.create("/c/1", bytes("v")).join();
      KeyValue second = compacting.update("/c/1", bytes("v2"), first.modRevision()).join();
      // each read writes a tick, so the revision the compactor saw an interval earlier moves on
      Await.until("the compactor compacts past revision " + second.modRevision(), Duration.ofSeconds(20), () -> {
        compacting.create("/c/tick-" + System.nanoTime(), bytes("v")).join();
        return compacting.compactedRevision();
      }, compacted -> compacted >= second.modRevision());

      assertThat(compacting.compactedRevision()).isGreaterThanOrEqualTo(second.modRevision());
      assertThatThrownBy(() -> compacting.get("/c/1", first.modRevision()).join())
          .cause().satisfies(e -> assertThat(((StorageException) e).code()).isEqualTo(StorageException.Code.COMPACTED));
      assertThat(compacting.get("/c/1").join()).contains(second);
    } finally {
      compacting.close();
    }
  }
}

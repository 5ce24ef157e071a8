package io.listwatch.client.cache;

import static io.listwatch.client.cache.StoreTestObject.KEY;
import static io.listwatch.client.cache.StoreTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DeltaFIFOTest {

  /** The consumer's store, as an informer's indexer. */
  private final ThreadSafeStore<StoreTestObject> known = new ThreadSafeStore<>(KEY);
  private final DeltaFIFO<StoreTestObject> fifo = new DeltaFIFO<>(KEY, known);

  /** One popped batch. */
  private record Popped(List<Delta<StoreTestObject>> deltas, boolean initial) {
    List<DeltaType> types() {
      return deltas.stream().map(Delta::type).toList();
    }

    Delta<StoreTestObject> newest() {
      return deltas.getLast();
    }

    String key() {
      return deltas.getFirst().object().key();
    }
  }

  /** Pops one key and applies its deltas to {@link #known}, as an informer does. */
  private Popped pop() throws InterruptedException {
    AtomicReference<Popped> out = new AtomicReference<>();
    assertThat(
            fifo.pop(
                (deltas, initial) -> {
                  out.set(new Popped(List.copyOf(deltas), initial));
                  apply(deltas);
                }))
        .isTrue();
    return out.get();
  }

  private void apply(List<Delta<StoreTestObject>> deltas) {
    for (Delta<StoreTestObject> d : deltas) {
      if (d.type() == DeltaType.DELETED) {
        known.delete(d.object());
      } else {
        known.update(d.object());
      }
    }
  }

  private void drain() throws InterruptedException {
    while (fifo.size() > 0) {
      pop();
    }
  }

  // ---- add / update / delete

  @Test
  void addThenUpdate_popsBothDeltasOfTheKey_oldestFirst() throws Exception {
    StoreTestObject v1 = obj("ns", "a", "1");
    StoreTestObject v2 = obj("ns", "a", "2");
    fifo.add(v1);
    fifo.update(v2);

    assertThat(fifo.size()).isEqualTo(1);
    Popped p = pop();
    assertThat(p.types()).containsExactly(DeltaType.ADDED, DeltaType.UPDATED);
    assertThat(p.deltas()).extracting(Delta::object).containsExactly(v1, v2);
    assertThat(fifo.size()).isZero();
  }

  @Test
  void keys_arePoppedInOrderOfFirstInsertion_aKeyKeepsItsPlaceWhenUpdated() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    fifo.add(obj("ns", "b", "1"));
    fifo.update(obj("ns", "a", "2"));

    assertThat(fifo.listKeys()).containsExactly("ns/a", "ns/b");
    assertThat(pop().key()).isEqualTo("ns/a");
    assertThat(pop().key()).isEqualTo("ns/b");
  }

  @Test
  void key_queuedAgainAfterItsPop_goesToTheBack() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    fifo.add(obj("ns", "b", "1"));
    pop();
    fifo.update(obj("ns", "a", "2"));
    fifo.add(obj("ns", "c", "1"));

    assertThat(fifo.listKeys()).containsExactly("ns/b", "ns/a", "ns/c");
  }

  @Test
  void delete_ofKeyNeitherQueuedNorKnown_isIgnored() {
    fifo.delete(obj("ns", "ghost", "1"));

    assertThat(fifo.size()).isZero();

    DeltaFIFO<StoreTestObject> withoutKnown = new DeltaFIFO<>(KEY, null);
    withoutKnown.delete(obj("ns", "ghost", "1"));
    assertThat(withoutKnown.size()).isZero();
  }

  @Test
  void delete_ofKnownKey_queuesDeleted() throws Exception {
    known.add(obj("ns", "a", "1"));
    StoreTestObject deleted = obj("ns", "a", "2");
    fifo.delete(deleted);

    Popped p = pop();
    assertThat(p.deltas()).containsExactly(Delta.of(DeltaType.DELETED, deleted));
  }

  @Test
  void delete_ofQueuedKey_appendsDeleted() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    fifo.delete(obj("ns", "a", "1"));

    assertThat(pop().types()).containsExactly(DeltaType.ADDED, DeltaType.DELETED);
  }

  @Test
  void delete_twice_collapsesConsecutiveDeletes_keepingTheNewer() throws Exception {
    known.add(obj("ns", "a", "1"));
    fifo.delete(obj("ns", "a", "2"));
    StoreTestObject newer = obj("ns", "a", "3");
    fifo.delete(newer);

    assertThat(pop().deltas()).containsExactly(Delta.of(DeltaType.DELETED, newer));
  }

  @Test
  void observedDelete_afterInferredDelete_replacesIt() throws Exception {
    known.add(obj("ns", "a", "1"));
    fifo.replace(List.of(), "10");
    StoreTestObject observed = obj("ns", "a", "9");
    fifo.delete(observed);

    assertThat(pop().deltas()).containsExactly(Delta.of(DeltaType.DELETED, observed));
  }

  // ---- replace

  @Test
  void replace_queuesReplacedForEveryListedObject() throws Exception {
    StoreTestObject a = obj("ns", "a", "5");
    StoreTestObject b = obj("ns", "b", "5");
    fifo.replace(List.of(a, b), "5");

    assertThat(fifo.list()).containsExactly(a, b);
    assertThat(pop().deltas()).containsExactly(Delta.of(DeltaType.REPLACED, a));
    assertThat(pop().deltas()).containsExactly(Delta.of(DeltaType.REPLACED, b));
  }

  @Test
  void replace_emitsDeletedFinalStateUnknown_forKeysMissingFromList() throws Exception {
    StoreTestObject gone = obj("ns", "gone", "3");
    known.add(gone);
    known.add(obj("ns", "kept", "3"));
    StoreTestObject kept = obj("ns", "kept", "7");
    fifo.replace(List.of(kept), "7");

    assertThat(fifo.deltas("ns/kept")).containsExactly(Delta.of(DeltaType.REPLACED, kept));
    assertThat(fifo.deltas("ns/gone"))
        .containsExactly(new Delta<>(DeltaType.DELETED, gone, true));
  }

  @Test
  void replace_deletedFinalStateUnknown_carriesTheNewestQueuedObject() {
    known.add(obj("ns", "a", "1"));
    StoreTestObject v2 = obj("ns", "a", "2");
    fifo.update(v2);
    fifo.replace(List.of(), "9");

    assertThat(fifo.deltas("ns/a"))
        .containsExactly(
            Delta.of(DeltaType.UPDATED, v2), new Delta<>(DeltaType.DELETED, v2, true));
  }

  @Test
  void replace_emitsDeletion_forQueuedKeyTheConsumerHasNotSeenYet() {
    StoreTestObject added = obj("ns", "new", "1");
    fifo.add(added);
    fifo.replace(List.of(), "9");

    assertThat(fifo.deltas("ns/new"))
        .containsExactly(
            Delta.of(DeltaType.ADDED, added), new Delta<>(DeltaType.DELETED, added, true));
  }

  @Test
  void replace_skipsKeysWhoseNewestQueuedDeltaIsAlreadyDeleted() {
    known.add(obj("ns", "a", "1"));
    StoreTestObject deleted = obj("ns", "a", "2");
    fifo.delete(deleted);
    fifo.replace(List.of(), "9");

    assertThat(fifo.deltas("ns/a")).containsExactly(Delta.of(DeltaType.DELETED, deleted));
  }

  @Test
  void replace_withoutKnownObjects_detectsDeletionsAmongQueuedKeysOnly() {
    DeltaFIFO<StoreTestObject> plain = new DeltaFIFO<>(KEY, null);
    StoreTestObject a = obj("ns", "a", "1");
    plain.add(a);
    plain.replace(List.of(obj("ns", "b", "2")), "2");

    assertThat(plain.deltas("ns/a"))
        .containsExactly(Delta.of(DeltaType.ADDED, a), new Delta<>(DeltaType.DELETED, a, true));
    assertThat(plain.listKeys()).containsExactly("ns/a", "ns/b");
  }

  @Test
  void replace_afterQueuedKeys_infersDeletionsOnlyForThoseMissing_andKeepsQueueOrder() throws Exception {
    StoreTestObject a = obj("ns", "a", "1");
    StoreTestObject b = obj("ns", "b", "1");
    fifo.add(a);
    fifo.add(b);
    StoreTestObject b2 = obj("ns", "b", "2");
    StoreTestObject c = obj("ns", "c", "2");
    fifo.replace(List.of(c, b2), "2");

    assertThat(fifo.listKeys()).containsExactly("ns/a", "ns/b", "ns/c");
    assertThat(fifo.deltas("ns/a"))
        .containsExactly(Delta.of(DeltaType.ADDED, a), new Delta<>(DeltaType.DELETED, a, true));
    assertThat(fifo.deltas("ns/b"))
        .containsExactly(Delta.of(DeltaType.ADDED, b), Delta.of(DeltaType.REPLACED, b2));
    assertThat(fifo.deltas("ns/c")).containsExactly(Delta.of(DeltaType.REPLACED, c));
  }

  @Test
  void replace_intoAnEmptyQueue_withNothingKnown_queuesEveryObject_andALaterReplaceInfersDeletions()
      throws Exception {
    List<StoreTestObject> listed = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      listed.add(obj("ns", "o" + i, "1"));
    }
    fifo.replace(listed, "1");
    assertThat(fifo.size()).isEqualTo(100);
    assertThat(fifo.list()).containsExactlyElementsOf(listed);

    fifo.replace(listed.subList(1, 100), "2");
    assertThat(fifo.deltas("ns/o0")).containsExactly(
        Delta.of(DeltaType.REPLACED, listed.get(0)), new Delta<>(DeltaType.DELETED, listed.get(0), true));
    assertThat(fifo.deltas("ns/o1")).containsExactly(
        Delta.of(DeltaType.REPLACED, listed.get(1)), Delta.of(DeltaType.REPLACED, listed.get(1)));
  }

  // ---- resync

  @Test
  void resync_queuesSyncOnlyForKnownKeysNotQueued() {
    StoreTestObject idle = obj("ns", "idle", "1");
    known.add(idle);
    known.add(obj("ns", "busy", "1"));
    StoreTestObject busy2 = obj("ns", "busy", "2");
    fifo.update(busy2);
    fifo.resync();

    assertThat(fifo.deltas("ns/idle")).containsExactly(Delta.of(DeltaType.SYNC, idle));
    assertThat(fifo.deltas("ns/busy")).containsExactly(Delta.of(DeltaType.UPDATED, busy2));
  }

  @Test
  void resync_withoutKnownObjects_queuesNothing() {
    DeltaFIFO<StoreTestObject> plain = new DeltaFIFO<>(KEY, null);
    plain.resync();

    assertThat(plain.size()).isZero();
  }

  // ---- pop, close

  @Test
  void pop_blocksUntilAdd() throws Exception {
    CompletableFuture<Popped> popped = new CompletableFuture<>();
    Thread popper =
        Thread.ofPlatform()
            .name("test-popper")
            .start(
                () -> {
                  try {
                    popped.complete(pop());
                  } catch (Throwable t) {
                    popped.completeExceptionally(t);
                  }
                });
    awaitWaiting(popper);
    assertThat(popped).isNotDone();

    fifo.add(obj("ns", "a", "1"));

    assertThat(popped.get(10, TimeUnit.SECONDS).key()).isEqualTo("ns/a");
  }

  @Test
  void close_wakesABlockedPop_whichReturnsFalse() throws Exception {
    CompletableFuture<Boolean> result = new CompletableFuture<>();
    Thread popper =
        Thread.ofPlatform()
            .name("test-popper")
            .start(
                () -> {
                  try {
                    result.complete(fifo.pop((d, i) -> {}));
                  } catch (Throwable t) {
                    result.completeExceptionally(t);
                  }
                });
    awaitWaiting(popper);

    fifo.close();
    fifo.close();

    assertThat(result.get(10, TimeUnit.SECONDS)).isFalse();
    assertThat(fifo.isClosed()).isTrue();
  }

  @Test
  void pop_afterClose_returnsFalse_evenWithQueuedKeys() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    fifo.close();
    AtomicBoolean called = new AtomicBoolean();

    assertThat(fifo.pop((d, i) -> called.set(true))).isFalse();
    assertThat(called).isFalse();
  }

  @Test
  void pop_processorException_propagates_andTheKeysDeltasAreDropped() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    fifo.add(obj("ns", "b", "1"));

    assertThatThrownBy(() -> fifo.pop((d, i) -> { throw new IllegalStateException("boom"); }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("boom");
    assertThatThrownBy(() -> fifo.pop((d, i) -> { throw new IOException("io"); }))
        .isInstanceOf(UndeclaredThrowableException.class)
        .hasCauseInstanceOf(IOException.class);
    assertThat(fifo.size()).isZero();
  }

  // ---- initial population

  @Test
  void hasSynced_falseUntilPopulated_trueAfterReplaceOfEmptyList() {
    assertThat(fifo.hasSynced()).isFalse();
    fifo.replace(List.of(), "1");
    assertThat(fifo.hasSynced()).isTrue();
  }

  @Test
  void hasSynced_afterInitialItemsPopped() throws Exception {
    fifo.replace(List.of(obj("ns", "a", "1"), obj("ns", "b", "1")), "1");
    fifo.add(obj("ns", "c", "2"));

    assertThat(fifo.hasSynced()).isFalse();
    pop();
    assertThat(fifo.hasSynced()).isFalse();
    pop();
    assertThat(fifo.hasSynced()).isTrue();
    assertThat(fifo.size()).isEqualTo(1);
  }

  @Test
  void hasSynced_countsTheInferredDeletionsOfTheFirstReplace() throws Exception {
    known.add(obj("ns", "stale", "1"));
    fifo.replace(List.of(obj("ns", "a", "2")), "2");

    pop();
    assertThat(fifo.hasSynced()).isFalse();
    Popped deletion = pop();
    assertThat(deletion.newest().deletedFinalStateUnknown()).isTrue();
    assertThat(fifo.hasSynced()).isTrue();
  }

  @Test
  void hasSynced_isFalseWhileTheLastInitialItemIsStillBeingProcessed() throws Exception {
    fifo.replace(List.of(obj("ns", "a", "1")), "1");
    AtomicBoolean syncedDuringProcess = new AtomicBoolean(true);

    fifo.pop((d, i) -> syncedDuringProcess.set(fifo.hasSynced()));

    assertThat(syncedDuringProcess).isFalse();
    assertThat(fifo.hasSynced()).isTrue();
  }

  @Test
  void hasSynced_afterFirstAdd_isTrueAtOnce() {
    fifo.add(obj("ns", "a", "1"));

    assertThat(fifo.hasSynced()).isTrue();
  }

  @Test
  void pop_isInInitialList_onlyForFirstReplaceItems() throws Exception {
    fifo.replace(List.of(obj("ns", "a", "1"), obj("ns", "b", "1")), "1");
    fifo.add(obj("ns", "c", "2"));
    fifo.update(obj("ns", "a", "3"));

    assertThat(pop().initial()).isTrue();
    assertThat(pop().initial()).isTrue();
    assertThat(pop().initial()).isFalse();

    fifo.replace(List.of(obj("ns", "d", "4")), "4");
    List<Boolean> later = new ArrayList<>();
    while (fifo.size() > 0) {
      later.add(pop().initial());
    }
    assertThat(later).isNotEmpty().containsOnly(false);
  }

  // ---- reads

  @Test
  void reads_showTheNewestQueuedDeltaOfEachKey() {
    known.add(obj("ns", "b", "1"));
    StoreTestObject a2 = obj("ns", "a", "2");
    StoreTestObject b2 = obj("ns", "b", "2");
    fifo.add(obj("ns", "a", "1"));
    fifo.update(a2);
    fifo.delete(b2);

    assertThat(fifo.list()).containsExactly(a2, b2);
    assertThat(fifo.listKeys()).containsExactly("ns/a", "ns/b");
    assertThat(fifo.getByKey("ns/a")).containsSame(a2);
    assertThat(fifo.get(obj("ns", "b", "x"))).containsSame(b2);
    assertThat(fifo.getByKey("ns/none")).isEmpty();
  }

  // ---- processing outside the queue lock

  @Test
  void producers_areNotBlocked_whileAProcessorRuns() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    CountDownLatch processing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> popDone = popInBackground(processing, release);
    try {
      assertThat(processing.await(10, TimeUnit.SECONDS)).isTrue();

      // The processor is held until the finally block: producers that waited for it would
      // not finish within the bound.
      CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
        fifo.add(obj("ns", "b", "1"));
        fifo.resync();
      });
      assertThat(producer).as("add and resync while the processor runs").succeedsWithin(Duration.ofSeconds(10));
      assertThat(fifo.listKeys()).contains("ns/b");
    } finally {
      release.countDown();
    }
    popDone.get(10, TimeUnit.SECONDS);
  }

  @Test
  void delete_ofTheKeyBeingProcessed_isQueued_evenBeforeTheConsumerApplied() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    CountDownLatch processing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> popDone = popInBackground(processing, release);
    StoreTestObject deleted = obj("ns", "a", "2");
    try {
      assertThat(processing.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(known.getByKey("ns/a")).isEmpty();

      fifo.delete(deleted);
    } finally {
      release.countDown();
    }
    popDone.get(10, TimeUnit.SECONDS);

    assertThat(fifo.deltas("ns/a")).containsExactly(Delta.of(DeltaType.DELETED, deleted));
    pop();
    assertThat(known.list()).isEmpty();
  }

  @Test
  void replace_whileAKeyIsBeingProcessed_treatsItAsKnown() throws Exception {
    StoreTestObject v2 = obj("ns", "a", "2");
    known.add(obj("ns", "a", "1"));
    known.add(obj("ns", "gone", "1"));
    fifo.update(v2);
    CountDownLatch processing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> popDone = popInBackground(processing, release);
    try {
      assertThat(processing.await(10, TimeUnit.SECONDS)).isTrue();
      fifo.delete(obj("ns", "gone", "1"));
      fifo.replace(List.of(), "5");
      fifo.resync();
    } finally {
      release.countDown();
    }
    popDone.get(10, TimeUnit.SECONDS);

    // The in-flight key's last state is v2 (not the consumer's v1); "gone" got no second,
    // inferred deletion; and the resync found nothing unqueued to sync.
    assertThat(fifo.deltas("ns/a")).containsExactly(new Delta<>(DeltaType.DELETED, v2, true));
    assertThat(fifo.deltas("ns/gone")).extracting(Delta::deletedFinalStateUnknown)
        .containsExactly(false);
    drain();
    assertThat(known.list()).isEmpty();
  }

  @Test
  void resync_whileAKeyIsBeingProcessed_syncsTheObjectItsDeltasLeadTo() throws Exception {
    known.add(obj("ns", "a", "1"));
    StoreTestObject v2 = obj("ns", "a", "2");
    fifo.update(v2);
    CountDownLatch processing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> popDone = popInBackground(processing, release);
    try {
      assertThat(processing.await(10, TimeUnit.SECONDS)).isTrue();
      fifo.resync();
    } finally {
      release.countDown();
    }
    popDone.get(10, TimeUnit.SECONDS);

    assertThat(fifo.deltas("ns/a")).containsExactly(Delta.of(DeltaType.SYNC, v2));
  }

  @Test
  void pop_fromASecondThread_waitsForTheRunningProcessor() throws Exception {
    fifo.add(obj("ns", "a", "1"));
    fifo.add(obj("ns", "b", "1"));
    List<String> processed = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch processing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> first = popInBackground(processing, release);
    CompletableFuture<Boolean> second = new CompletableFuture<>();
    try {
      assertThat(processing.await(10, TimeUnit.SECONDS)).isTrue();
      Thread popper =
          Thread.ofPlatform()
              .name("test-second-popper")
              .start(
                  () -> {
                    try {
                      second.complete(
                          fifo.pop((d, i) -> processed.add(d.getFirst().object().key())));
                    } catch (Throwable t) {
                      second.completeExceptionally(t);
                    }
                  });
      awaitWaiting(popper);
      assertThat(processed).isEmpty();
      assertThat(fifo.listKeys()).containsExactly("ns/b");
    } finally {
      release.countDown();
    }
    first.get(10, TimeUnit.SECONDS);

    assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(processed).containsExactly("ns/b");
    assertThat(known.getByKey("ns/a")).isPresent();
  }

  // ---- helpers

  /** Pops one key in the background; its processor signals {@code processing}, waits for
   * {@code release}, then applies the deltas. */
  private CompletableFuture<Void> popInBackground(CountDownLatch processing, CountDownLatch release) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofPlatform()
        .name("test-popper")
        .start(
            () -> {
              try {
                fifo.pop(
                    (deltas, initial) -> {
                      processing.countDown();
                      assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
                      apply(deltas);
                    });
                done.complete(null);
              } catch (Throwable t) {
                done.completeExceptionally(t);
              }
            });
    return done;
  }

  /** Waits (bounded) until {@code thread} parks, i.e. is blocked in pop. */
  private static void awaitWaiting(Thread thread) {
    Await.until("the popper blocks", Duration.ofSeconds(10), thread::getState, state -> state == Thread.State.WAITING);
  }
}

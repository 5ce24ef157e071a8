package io.listwatch.client.cache;

import static io.listwatch.client.cache.InformerTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.client.cache.InformerTestListerWatcher.FakeWatch;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SharedIndexInformerTest {

  /** How long the informer's own threads may take for what a test waits for. */
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final FakeClock clock = new FakeClock();
  private final InformerTestListerWatcher lw = new InformerTestListerWatcher();
  private SharedIndexInformer<InformerTestObject> informer =
      SharedIndexInformer.builder(lw, InformerTestObject.CODEC).name("pods").clock(clock).build();

  @AfterEach
  void close() {
    informer.close();
  }

  /** Starts the informer over a list of {@code items} at rv 10; returns the watch. */
  private FakeWatch startAndSync(InformerTestObject... items) throws Exception {
    lw.setList(10, items);
    informer.start();
    FakeWatch watch = lw.awaitWatch();
    ((DefaultSharedIndexInformer<?>) informer).whenSynced().get(10, TimeUnit.SECONDS);
    assertThat(informer.hasSynced()).isTrue();
    return watch;
  }

  /** Sends a 410 on {@code watch}, lets the reflector's backoff pass, returns the new watch. */
  private FakeWatch relist(FakeWatch watch, InformerTestObject... items) throws Exception {
    lw.setList(20, items);
    watch.expired();
    Await.until("the reflector waits its backoff", WAIT, () -> clock.sleepers() > 0);
    clock.advance(Duration.ofSeconds(2)); // the first backoff is at most 1.6 s
    lw.awaitList();
    return lw.awaitWatch();
  }

  @Test
  void handler_seesAddUpdateDelete_inOrderPerObject() throws Exception {
    InformerTestHandler handler = new InformerTestHandler();
    informer.addEventHandler(handler);
    FakeWatch watch = startAndSync(obj("ns", "a", 1), obj("ns", "b", 2));
    assertThat(handler.next(2)).containsExactly("add ns/a@1 initial", "add ns/b@2 initial");

    watch.modified(obj("ns", "a", 11)).added(obj("ns", "c", 12)).deleted(obj("ns", "a", 13))
        .modified(obj("ns", "b", 14));
    List<String> calls = handler.next(4);
    assertThat(calls).containsSubsequence("update ns/a@1->11", "delete ns/a@13");
    assertThat(calls).containsSubsequence("add ns/c@12");
    assertThat(calls).containsSubsequence("update ns/b@2->14");
    assertThat(informer.getStore().listKeys()).containsExactlyInAnyOrder("ns/b", "ns/c");
    Await.until("rv 14 synced", WAIT, () -> informer.lastSyncResourceVersion().equals("14"));
  }

  @Test
  void indexer_isUpdatedBeforeTheHandlerIsCalled() throws Exception {
    // x-objects are added and updated, never deleted: the indexer must hold at least the
    // notified state when the handler runs. d-objects are listed, then deleted for good: on
    // their delete the indexer must no longer hold them (on their add it may already not).
    List<String> violations = new CopyOnWriteArrayList<>();
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        Optional<InformerTestObject> cached = informer.getIndexer().getByKey(call.key());
        boolean ok = call.kind().equals("delete")
            ? cached.isEmpty()
            : cached.map(o -> Long.parseLong(o.resourceVersion()) >= Long.parseLong(call.rv()))
                .orElse(call.object().name().startsWith("d"));
        if (!ok) {
          violations.add(call + " saw " + cached);
        }
      }
    };
    informer.addEventHandler(handler);
    InformerTestObject[] initial = new InformerTestObject[20];
    for (int i = 0; i < 20; i++) {
      initial[i] = obj("ns", "d" + i, i + 1);
    }
    FakeWatch watch = startAndSync(initial);
    for (int i = 0; i < 20; i++) {
      watch.added(obj("ns", "x" + i, 100 + 3 * i)).modified(obj("ns", "x" + i, 101 + 3 * i))
          .deleted(obj("ns", "d" + i, 102 + 3 * i));
    }
    handler.next(20 + 20 * 3);
    assertThat(violations).isEmpty();
  }

  @Test
  void aStalledHandler_doesNotDelayAnotherHandler_orTheCache() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    InformerTestHandler stalled = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        ProcessorListenerTest.await(release);
      }
    };
    InformerTestHandler fast = new InformerTestHandler();
    ResourceEventHandlerRegistration stalledRegistration = informer.addEventHandler(stalled);
    informer.addEventHandler(fast);
    FakeWatch watch = startAndSync();

    for (int i = 1; i <= 1000; i++) {
      watch.added(obj("ns", "p" + i, 100 + i));
    }
    for (int i = 1; i <= 1000; i++) {
      assertThat(fast.next().key()).isEqualTo("ns/p" + i);
    }
    assertThat(informer.getStore().list()).hasSize(1000);
    assertThat(stalled.calls).isEmpty();
    assertThat(stalledRegistration.metrics().maxBacklog()).isGreaterThanOrEqualTo(999);

    release.countDown();
    for (int i = 1; i <= 1000; i++) {
      assertThat(stalled.next().key()).isEqualTo("ns/p" + i);
    }
  }

  @Test
  void handlerAddedAfterSync_getsTheCacheAsInitialAdds_andItsRegistrationSyncsOnceReplayed()
      throws Exception {
    FakeWatch watch = startAndSync(obj("ns", "a", 1), obj("ns", "b", 2));
    watch.added(obj("ns", "c", 11));
    Await.until("c cached", WAIT, () -> informer.getStore().list().size() == 3);

    CountDownLatch release = new CountDownLatch(1);
    InformerTestHandler late = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        ProcessorListenerTest.await(release);
      }
    };
    ResourceEventHandlerRegistration registration = informer.addEventHandler(late);
    watch.modified(obj("ns", "a", 12));
    assertThat(registration.hasSynced()).isFalse();

    release.countDown();
    List<String> replay = late.next(3);
    assertThat(replay).containsExactlyInAnyOrder(
        "add ns/a@1 initial", "add ns/b@2 initial", "add ns/c@11 initial");
    assertThat(late.next().toString()).isEqualTo("update ns/a@1->12");
    Await.until("the late handler's registration synced", WAIT, registration::hasSynced);
  }

  @Test
  void registrationOfAHandlerAddedBeforeStart_syncsAfterTheFirstList() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        ProcessorListenerTest.await(release);
      }
    };
    ResourceEventHandlerRegistration registration = informer.addEventHandler(handler);
    assertThat(registration.hasSynced()).isFalse();
    startAndSync(obj("ns", "a", 1), obj("ns", "b", 2));
    assertThat(registration.hasSynced()).as("the handler has not returned yet").isFalse();
    release.countDown();
    handler.next(2);
    Await.until("registration synced", WAIT, registration::hasSynced);
  }

  @Test
  void perHandlerResync_sendsSyncUpdatesOnlyToTheHandlersDue() throws Exception {
    InformerTestHandler every10s = new InformerTestHandler();
    InformerTestHandler every30s = new InformerTestHandler();
    InformerTestHandler never = new InformerTestHandler();
    informer.addEventHandler(every10s, Duration.ofSeconds(10));
    informer.addEventHandler(every30s, Duration.ofSeconds(30));
    informer.addEventHandler(never, Duration.ZERO);
    FakeWatch watch = startAndSync(obj("ns", "a", 1));
    every10s.next();
    every30s.next();
    never.next();

    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofSeconds(10));
      assertThat(every10s.next().toString()).isEqualTo("update ns/a@1->1");
    }
    assertThat(every30s.next().toString()).isEqualTo("update ns/a@1->1");
    watch.modified(obj("ns", "a", 11)); // a real change reaches everyone, after any resync
    assertThat(every10s.next().toString()).isEqualTo("update ns/a@1->11");
    assertThat(every30s.next().toString()).isEqualTo("update ns/a@1->11");
    assertThat(never.next().toString()).isEqualTo("update ns/a@1->11");
    assertThat(every30s.calls).isEmpty();
    assertThat(never.calls).isEmpty();
  }

  @Test
  void relist_changedObjectIsAnUpdate_newOneAnAdd_unchangedOneNothing() throws Exception {
    InformerTestHandler handler = new InformerTestHandler();
    informer.addEventHandler(handler);
    FakeWatch watch = startAndSync(obj("ns", "a", 1), obj("ns", "b", 2));
    handler.next(2);

    FakeWatch next = relist(watch, obj("ns", "a", 15), obj("ns", "b", 2), obj("ns", "c", 16));
    // REPLACED deltas come in list order: a, b, c. b's is a no-op for a handler not due for
    // resync, so a's update is followed directly by c's add.
    assertThat(handler.next(2)).containsExactly("update ns/a@1->15", "add ns/c@16");
    next.modified(obj("ns", "b", 21));
    assertThat(handler.next().toString()).isEqualTo("update ns/b@2->21");
    assertThat(informer.getStore().getByKey("ns/a")).contains(obj("ns", "a", 15));
  }

  @Test
  void relist_thatDropsAKey_deletesItWithDeletedFinalStateUnknown() throws Exception {
    InformerTestHandler handler = new InformerTestHandler();
    informer.addEventHandler(handler);
    FakeWatch watch = startAndSync(obj("ns", "a", 1), obj("ns", "b", 2));
    handler.next(2);

    relist(watch, obj("ns", "a", 1));
    assertThat(handler.next().toString()).isEqualTo("delete ns/b@2 unknown");
    assertThat(informer.getStore().listKeys()).containsExactly("ns/a");
  }

  @Test
  void transform_isAppliedBeforeObjectsAreStoredOrDelivered() throws Exception {
    informer = SharedIndexInformer.builder(lw, InformerTestObject.CODEC).name("pods")
        .clock(clock).transform(o -> o.withValue("slim")).build();
    InformerTestHandler handler = new InformerTestHandler();
    informer.addEventHandler(handler);
    FakeWatch watch = startAndSync(obj("ns", "a", 1, "fat"));
    watch.added(obj("ns", "b", 11, "fat"));
    assertThat(handler.next().object().value()).isEqualTo("slim");
    assertThat(handler.next().object().value()).isEqualTo("slim");
    assertThat(informer.getStore().list()).extracting(InformerTestObject::value)
        .containsExactly("slim", "slim");
    assertThatThrownBy(() -> informer.setTransform(o -> o))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void removedHandler_getsNothingMore() throws Exception {
    InformerTestHandler removed = new InformerTestHandler();
    InformerTestHandler kept = new InformerTestHandler();
    ResourceEventHandlerRegistration registration = informer.addEventHandler(removed);
    informer.addEventHandler(kept);
    FakeWatch watch = startAndSync(obj("ns", "a", 1));
    removed.next();
    kept.next();

    informer.removeEventHandler(registration);
    informer.removeEventHandler(registration);
    assertThat(((ProcessorListener<?>) registration).awaitTermination(Duration.ofSeconds(10)))
        .isTrue();
    watch.modified(obj("ns", "a", 11));
    assertThat(kept.next().toString()).isEqualTo("update ns/a@1->11");
    assertThat(removed.calls).isEmpty();
    ResourceEventHandlerRegistration foreign = new ResourceEventHandlerRegistration() {
      @Override public boolean hasSynced() { return true; }
      @Override public HandlerMetrics metrics() { return null; }
    };
    assertThatThrownBy(() -> informer.removeEventHandler(foreign))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void close_stopsEveryThreadItStarted() throws Exception {
    Thread[] deltaLoop = new Thread[1];
    informer = SharedIndexInformer.builder(lw, InformerTestObject.CODEC).name("pods")
        .clock(clock)
        .indexers(Map.of("thread", o -> {
          deltaLoop[0] = Thread.currentThread();
          return List.of();
        }))
        .build();
    InformerTestHandler handler = new InformerTestHandler();
    informer.addEventHandler(handler);
    FakeWatch watch = startAndSync(obj("ns", "a", 1));
    handler.next();
    assertThat(informer.isRunning()).isTrue();
    List<Thread> threads = List.of(lw.requestThread, deltaLoop[0], handler.thread);
    assertThat(threads).extracting(Thread::getName).containsExactly(
        "informer-pods-reflector", "informer-pods-delta-loop", "informer-pods-handler-1");
    assertThat(threads).allMatch(Thread::isAlive);

    informer.close();
    assertThat(threads).noneMatch(Thread::isAlive);
    assertThat(watch.isClosed()).isTrue();
    assertThat(informer.isRunning()).isFalse();
    informer.close(); // idempotent
    assertThat(handler.calls).isEmpty();
    assertThatThrownBy(() -> informer.addEventHandler(new InformerTestHandler()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("SharedIndexInformer[pods]");
    assertThatThrownBy(informer::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void close_calledFromAHandler_returnsAndStopsTheInformer() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        informer.close();
        closed.countDown();
      }
    };
    informer.addEventHandler(handler);
    lw.setList(10, obj("ns", "a", 1));
    informer.start();
    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(informer.isRunning()).isFalse();
    assertThat(lw.requestThread.isAlive()).as("the reflector thread was joined").isFalse();
    Await.until("the handler thread ends once the call returns", WAIT, () -> !handler.thread.isAlive());
  }

  @Test
  void beforeStart_nothingIsSynced_andTheIndexerIsEmpty() {
    assertThat(informer.hasSynced()).isFalse();
    assertThat(informer.isRunning()).isFalse();
    assertThat(informer.lastSyncResourceVersion()).isEmpty();
    assertThat(informer.getIndexer().list()).isEmpty();
    assertThat(informer.getIndexer().indexNames()).contains(Indexer.NAMESPACE_INDEX);
  }

  @Test
  void emptyFirstList_syncsTheInformer() throws Exception {
    startAndSync();
    assertThat(informer.lastSyncResourceVersion()).isEqualTo("10");
  }

  @Test
  void indexersAddedAfterStart_indexTheCurrentContent() throws Exception {
    startAndSync(obj("ns", "a", 1, "red"), obj("other", "b", 2, "blue"));
    informer.addIndexers(Map.of("value", o -> List.of(o.value())));
    assertThat(informer.getIndexer().byIndex("value", "red")).containsExactly(obj("ns", "a", 1, "red"));
    assertThat(informer.getIndexer().byIndex(Indexer.NAMESPACE_INDEX, "other"))
        .containsExactly(obj("other", "b", 2, "blue"));
  }
}

package io.listwatch.client.cache;

import static io.listwatch.client.cache.InformerTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SharedProcessorTest {

  private final FakeClock clock = new FakeClock();
  private final SharedProcessor<InformerTestObject> processor = new SharedProcessor<>("pods", clock);

  @AfterEach
  void stop() throws InterruptedException {
    assertThat(processor.stop(Duration.ofSeconds(10))).isTrue();
  }

  private ProcessorListener<InformerTestObject> add(InformerTestHandler handler, Duration resync) {
    ProcessorListener<InformerTestObject> l =
        processor.newListener(handler, resync, resync, () -> true);
    processor.addListener(l);
    return l;
  }

  private static Notification<InformerTestObject> update(long from, long to) {
    return new Notification.Update<>(obj("ns", "a", from), obj("ns", "a", to));
  }

  @Test
  void aStalledHandler_doesNotDelayAnotherHandler() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch stalled = new CountDownLatch(1);
    InformerTestHandler slow = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        stalled.countDown();
        ProcessorListenerTest.await(release);
      }
    };
    InformerTestHandler fast = new InformerTestHandler();
    ProcessorListener<InformerTestObject> slowListener = add(slow, Duration.ZERO);
    add(fast, Duration.ZERO);
    processor.run();

    for (int i = 1; i <= 1000; i++) {
      processor.distribute(update(i - 1, i), false);
    }
    for (int i = 1; i <= 1000; i++) {
      assertThat(fast.next().rv()).isEqualTo(Integer.toString(i));
    }
    assertThat(stalled.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(slow.calls).isEmpty();
    assertThat(slowListener.metrics().backlog()).isEqualTo(999);

    release.countDown();
    for (int i = 1; i <= 1000; i++) {
      assertThat(slow.next().rv()).isEqualTo(Integer.toString(i));
    }
  }

  @Test
  void listenersGetThreadNumbersInOrder() throws Exception {
    InformerTestHandler first = new InformerTestHandler();
    InformerTestHandler second = new InformerTestHandler();
    add(first, Duration.ZERO);
    add(second, Duration.ZERO);
    processor.run();
    processor.distribute(update(1, 2), false);
    first.next();
    second.next();
    assertThat(first.thread.getName()).isEqualTo("informer-pods-handler-1");
    assertThat(second.thread.getName()).isEqualTo("informer-pods-handler-2");
  }

  @Test
  void syncNotifications_goOnlyToListenersDueForResync() throws Exception {
    InformerTestHandler every10s = new InformerTestHandler();
    InformerTestHandler every60s = new InformerTestHandler();
    InformerTestHandler never = new InformerTestHandler();
    add(every10s, Duration.ofSeconds(10));
    add(every60s, Duration.ofSeconds(60));
    add(never, Duration.ZERO);
    processor.run();

    assertThat(processor.shouldResync()).isFalse();
    clock.advance(Duration.ofSeconds(10));
    assertThat(processor.shouldResync()).isTrue();
    processor.distribute(update(5, 5), true);
    processor.distribute(update(5, 6), false); // a real change reaches everyone
    assertThat(every10s.next(2)).containsExactly("update ns/a@5->5", "update ns/a@5->6");
    assertThat(every60s.next(1)).containsExactly("update ns/a@5->6");
    assertThat(never.next(1)).containsExactly("update ns/a@5->6");
    assertThat(every60s.calls).isEmpty();
    assertThat(never.calls).isEmpty();

    clock.advance(Duration.ofSeconds(50));
    assertThat(processor.shouldResync()).isTrue(); // both are due at 60 s
    processor.distribute(update(6, 6), true);
    processor.distribute(update(6, 7), false);
    assertThat(every10s.next(2)).containsExactly("update ns/a@6->6", "update ns/a@6->7");
    assertThat(every60s.next(2)).containsExactly("update ns/a@6->6", "update ns/a@6->7");
    assertThat(never.next(1)).containsExactly("update ns/a@6->7");
  }

  @Test
  void listenerAddedWhileRunning_startsAtOnce() throws Exception {
    processor.run();
    InformerTestHandler late = new InformerTestHandler();
    add(late, Duration.ZERO);
    processor.distribute(update(1, 2), false);
    assertThat(late.next().rv()).isEqualTo("2");
  }

  @Test
  void removedListener_getsNothingMore_andItsThreadEnds() throws Exception {
    InformerTestHandler removed = new InformerTestHandler();
    InformerTestHandler kept = new InformerTestHandler();
    ProcessorListener<InformerTestObject> l = add(removed, Duration.ZERO);
    add(kept, Duration.ZERO);
    processor.run();
    processor.distribute(update(1, 2), false);
    assertThat(removed.next().rv()).isEqualTo("2");

    assertThat(processor.removeListener(l)).isTrue();
    assertThat(processor.removeListener(l)).isFalse();
    assertThat(l.awaitTermination(Duration.ofSeconds(10))).isTrue();
    processor.distribute(update(2, 3), false);
    assertThat(kept.next(2)).containsExactly("update ns/a@1->2", "update ns/a@2->3");
    assertThat(removed.calls).isEmpty();
    assertThat(processor.contains(l)).isFalse();
  }

  @Test
  void stop_endsEveryListenerThread_andRefusesNewListeners() throws Exception {
    InformerTestHandler a = new InformerTestHandler();
    InformerTestHandler b = new InformerTestHandler();
    add(a, Duration.ZERO);
    add(b, Duration.ZERO);
    processor.run();
    processor.distribute(update(1, 2), false);
    a.next();
    b.next();

    assertThat(processor.stop(Duration.ofSeconds(10))).isTrue();
    assertThat(a.thread.isAlive()).isFalse();
    assertThat(b.thread.isAlive()).isFalse();
    assertThatThrownBy(() -> add(new InformerTestHandler(), Duration.ZERO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("SharedIndexInformer[pods] is closed");
  }

  @Test
  void effectiveResyncPeriod_followsClientGo() {
    Duration check = Duration.ofSeconds(30);
    assertThat(SharedProcessor.effectiveResyncPeriod("pods", Duration.ZERO, check)).isZero();
    assertThat(SharedProcessor.effectiveResyncPeriod("pods", Duration.ofSeconds(5), check))
        .isEqualTo(check);
    assertThat(SharedProcessor.effectiveResyncPeriod("pods", Duration.ofMinutes(2), check))
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(SharedProcessor.effectiveResyncPeriod("pods", Duration.ofMinutes(2), Duration.ZERO))
        .isZero();
  }

  @Test
  void resyncCheckPeriodChanged_recomputesEveryListenersPeriod() {
    ProcessorListener<InformerTestObject> l = processor.newListener(new InformerTestHandler(),
        Duration.ofSeconds(5), Duration.ofSeconds(30), () -> true);
    processor.addListener(l);
    processor.resyncCheckPeriodChanged(Duration.ofSeconds(5));
    assertThat(l.resyncPeriod()).isEqualTo(Duration.ofSeconds(5));
  }
}

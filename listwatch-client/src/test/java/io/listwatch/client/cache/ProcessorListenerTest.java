package io.listwatch.client.cache;

import static io.listwatch.client.cache.InformerTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ProcessorListenerTest {

  private final FakeClock clock = new FakeClock();
  private final AtomicBoolean informerSynced = new AtomicBoolean(true);
  private final List<ProcessorListener<InformerTestObject>> started = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    for (ProcessorListener<InformerTestObject> l : started) {
      l.stop();
      assertThat(l.awaitTermination(Duration.ofSeconds(10))).isTrue();
    }
  }

  private ProcessorListener<InformerTestObject> listener(
      ResourceEventHandler<InformerTestObject> handler, Duration resync) {
    ProcessorListener<InformerTestObject> l = new ProcessorListener<>("pods", 7, handler,
        resync, resync, clock, informerSynced::get);
    started.add(l);
    return l;
  }

  @Test
  void delivers_inOrder_oneCallAtATime_onItsOwnNamedThread() throws Exception {
    InformerTestHandler handler = new InformerTestHandler();
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.start();
    for (int i = 1; i <= 500; i++) {
      l.add(new Notification.Update<>(obj("ns", "a", i - 1), obj("ns", "a", i)));
    }
    for (int i = 1; i <= 500; i++) {
      assertThat(handler.next().rv()).isEqualTo(Integer.toString(i));
    }
    assertThat(handler.overlapped).isFalse();
    assertThat(handler.thread.getName()).isEqualTo("informer-pods-handler-7");
    assertThat(handler.thread.isVirtual()).isTrue();
  }

  @Test
  void notificationsQueuedBeforeStart_areDeliveredOnceStarted() throws Exception {
    InformerTestHandler handler = new InformerTestHandler();
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.add(new Notification.Add<>(obj("ns", "a", 1), false));
    l.add(new Notification.Delete<>(obj("ns", "a", 2), true));
    l.start();
    assertThat(handler.next(2)).containsExactly("add ns/a@1", "delete ns/a@2 unknown");
  }

  @Test
  void handlerThatThrows_isCountedAndKeepsReceiving() throws Exception {
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        if (call.rv().equals("1")) {
          throw new IllegalStateException("boom from a test handler");
        }
      }
    };
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.start();
    l.add(new Notification.Add<>(obj("ns", "a", 1), false));
    l.add(new Notification.Add<>(obj("ns", "b", 2), false));
    assertThat(handler.next().toString()).isEqualTo("add ns/b@2");
    awaitDelivered(l, 2);
    assertThat(l.metrics().failed()).isEqualTo(1);
  }

  @Test
  void metrics_reportBacklogAndHandlerTimeFromTheClock() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch inHandler = new CountDownLatch(1);
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        if (call.rv().equals("1")) {
          inHandler.countDown();
          await(release);
          clock.advance(Duration.ofMillis(40)); // the call "took" 40 ms of the informer's clock
        }
      }
    };
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.start();
    l.add(new Notification.Add<>(obj("ns", "a", 1), false));
    assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();
    for (int i = 2; i <= 11; i++) {
      l.add(new Notification.Add<>(obj("ns", "a", i), false));
    }
    HandlerMetrics blocked = l.metrics();
    assertThat(blocked.backlog()).isEqualTo(10);
    assertThat(blocked.maxBacklog()).isEqualTo(10);
    assertThat(blocked.delivered()).isZero();

    release.countDown();
    awaitDelivered(l, 11);
    HandlerMetrics after = l.metrics();
    assertThat(after.backlog()).isZero();
    assertThat(after.maxBacklog()).isEqualTo(10);
    assertThat(after.handlerTimeMax()).isEqualTo(Duration.ofMillis(40));
    assertThat(after.handlerTimeTotal()).isEqualTo(Duration.ofMillis(40));
    assertThat(after.failed()).isZero();
  }

  @Test
  void hasSynced_waitsForTheInformer_andForEveryInitialAddToReturn() throws Exception {
    informerSynced.set(false);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch inHandler = new CountDownLatch(1);
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        if (call.rv().equals("2")) {
          inHandler.countDown();
          await(release);
        }
      }
    };
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.add(new Notification.Add<>(obj("ns", "a", 1), true));
    l.add(new Notification.Add<>(obj("ns", "b", 2), true));
    l.add(new Notification.Add<>(obj("ns", "c", 3), false)); // a watch event: not initial
    l.start();
    assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(l.hasSynced()).as("informer not synced").isFalse();
    informerSynced.set(true);
    assertThat(l.hasSynced()).as("second initial add still in the handler").isFalse();

    release.countDown();
    awaitDelivered(l, 2);
    assertThat(l.hasSynced()).isTrue();
  }

  @Test
  void stop_interruptsABlockedHandler_dropsPending_andEndsTheThread() throws Exception {
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        inHandler.countDown();
        try {
          new CountDownLatch(1).await();
        } catch (InterruptedException e) {
          interrupted.countDown();
        }
      }
    };
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.start();
    l.add(new Notification.Add<>(obj("ns", "a", 1), false));
    l.add(new Notification.Add<>(obj("ns", "b", 2), false));
    assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

    l.stop();
    assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(l.awaitTermination(Duration.ofSeconds(10))).isTrue();
    assertThat(handler.thread.isAlive()).isFalse();
    assertThat(handler.calls).extracting(InformerTestHandler.Call::rv).containsExactly("1");
    l.add(new Notification.Add<>(obj("ns", "c", 3), false));
    assertThat(l.metrics().backlog()).as("nothing is queued after stop").isZero();
  }

  @Test
  void handlerThatReassertsAnInterrupt_keepsReceiving() throws Exception {
    InformerTestHandler handler = new InformerTestHandler() {
      @Override
      void beforeRecord(Call call) {
        Thread.currentThread().interrupt();
      }
    };
    ProcessorListener<InformerTestObject> l = listener(handler, Duration.ZERO);
    l.start();
    l.add(new Notification.Add<>(obj("ns", "a", 1), false));
    assertThat(handler.next().rv()).isEqualTo("1");
    awaitDelivered(l, 1); // the thread is back waiting, with the flag set by the handler
    l.add(new Notification.Add<>(obj("ns", "b", 2), false));
    assertThat(handler.next().rv()).isEqualTo("2");
  }

  @Test
  void shouldResync_isDueOncePerPeriod_byTheClock() {
    ProcessorListener<InformerTestObject> l =
        listener(new InformerTestHandler(), Duration.ofSeconds(30));
    assertThat(l.shouldResync(clock.nanoTime())).isFalse();
    clock.advance(Duration.ofSeconds(29));
    assertThat(l.shouldResync(clock.nanoTime())).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(l.shouldResync(clock.nanoTime())).isTrue();
    l.determineNextResync(clock.nanoTime());
    assertThat(l.shouldResync(clock.nanoTime())).isFalse();
    clock.advance(Duration.ofSeconds(30));
    assertThat(l.shouldResync(clock.nanoTime())).isTrue();
  }

  @Test
  void shouldResync_neverWithAZeroPeriod() {
    ProcessorListener<InformerTestObject> l = listener(new InformerTestHandler(), Duration.ZERO);
    clock.advance(Duration.ofDays(365));
    assertThat(l.shouldResync(clock.nanoTime())).isFalse();
  }

  /** Waits until the handler has returned from {@code n} notifications. */
  static void awaitDelivered(ProcessorListener<?> l, long n) {
    Await.until(l + " delivered " + n, Duration.ofSeconds(10), () -> l.metrics().delivered(), d -> d >= n);
  }

  static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

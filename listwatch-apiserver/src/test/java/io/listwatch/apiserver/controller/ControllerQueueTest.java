package io.listwatch.apiserver.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The controllers' work queue: keys are worked on only while its gate is open (this server leads). */
@Timeout(30)
class ControllerQueueTest {

  private static final Duration BOUND = Duration.ofSeconds(20);

  /** A gate the test opens and closes, as an election would. */
  private static final class TestGate implements ControllerQueue.Gate {
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean open;

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void onChange(Runnable listener) {
      listeners.add(listener);
    }

    void lead(boolean leading) {
      open = leading;
      listeners.forEach(Runnable::run);
    }

    boolean isLeading() {
      return open;
    }
  }

  private final TestGate leadership = new TestGate();
  /** Each processed key with whether this server led when it was processed. */
  private final List<String> processed = new CopyOnWriteArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private ControllerQueue queue;
  private final io.listwatch.api.clock.FakeClock clock = new io.listwatch.api.clock.FakeClock();

  @AfterEach
  void close() {
    release.countDown();
    if (queue != null) {
      queue.close();
    }
  }

  private void start(String blockingKey) {
    queue = new ControllerQueue("queue-under-test", key -> {
      processed.add(key + (leadership.isLeading() ? " leading" : " NOT LEADING"));
      if (key.equals(blockingKey)) {
        release.await();
      }
    }, leadership, clock);
    queue.start();
  }

  @Test
  void keysQueuedOnAStandby_waitUntilItLeads_thenAreWorkedOnce() throws Exception {
    start("");
    queue.add("a");
    queue.add("b");
    queue.add("a");
    awaitWorkerWaiting();

    assertThat(processed).isEmpty();
    leadership.lead(true);
    awaitProcessed(2);
    assertThat(processed).containsExactly("a leading", "b leading");
  }

  @Test
  void aServerThatStopsLeading_finishesTheKeyInHand_andTakesNoOther() throws Exception {
    leadership.lead(true);
    start("slow");
    queue.add("slow");
    awaitProcessed(1);

    leadership.lead(false);
    queue.add("later");
    release.countDown();
    awaitWorkerWaiting();

    assertThat(processed).containsExactly("slow leading");
    leadership.lead(true);
    awaitProcessed(2);
    assertThat(processed).containsExactly("slow leading", "later leading");
  }

  /** A key whose work fails is tried again 200 ms later on the queue's clock, not before. */
  @Test
  void aFailedKey_isRetriedAfterItsBackoff_onTheInjectedClock() throws Exception {
    leadership.lead(true);
    java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
    queue = new ControllerQueue("queue-under-test", key -> {
      processed.add(key);
      if (attempts.incrementAndGet() == 1) {
        throw new IllegalStateException("first attempt fails");
      }
    }, leadership, clock);
    queue.start();
    queue.add("flaky");
    awaitProcessed(1);
    Await.until("the retry scheduled", BOUND, () -> clock.pendingTasks() == 1);

    clock.advance(java.time.Duration.ofMillis(199));
    assertThat(clock.pendingTasks()).as("not yet due").isEqualTo(1);
    clock.advance(java.time.Duration.ofMillis(1));
    awaitProcessed(2);
    assertThat(processed).containsExactly("flaky", "flaky");
  }

  /** Waits until the worker thread waits for work (it took every key it was allowed to). */
  private static void awaitWorkerWaiting() {
    Await.until("the worker waits for work", BOUND, () -> Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("queue-under-test") && t.getState() == Thread.State.WAITING));
  }

  private void awaitProcessed(int keys) {
    Await.until(keys + " keys processed", BOUND, () -> List.copyOf(processed), p -> p.size() == keys);
  }
}

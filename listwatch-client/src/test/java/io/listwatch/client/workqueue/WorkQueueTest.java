package io.listwatch.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WorkQueueTest {

  private final FakeClock clock = new FakeClock();
  private final DefaultWorkQueue<String> queue =
      (DefaultWorkQueue<String>) WorkQueue.<String>builder().name("pods").clock(clock).build();

  @Test
  void add_sameItemWhileQueued_isQueuedOnce() throws Exception {
    queue.add("a");
    queue.add("b");
    queue.add("a");

    assertThat(queue.len()).isEqualTo(2);
    assertThat(queue.get()).contains("a");
    assertThat(queue.get()).contains("b");
    assertThat(queue.len()).isZero();
    assertThat(queue.metrics().adds()).isEqualTo(2);
  }

  @Test
  void get_handsOutItemsInAddOrder() throws Exception {
    List<String> added = List.of("c", "a", "d", "b");
    added.forEach(queue::add);

    List<String> got = new ArrayList<>();
    for (int i = 0; i < added.size(); i++) {
      got.add(queue.get().orElseThrow());
    }
    assertThat(got).containsExactlyElementsOf(added);
  }

  @Test
  void add_whileProcessing_isNotHandedOutUntilDone_thenRequeuedOnce() throws Exception {
    queue.add("a");
    assertThat(queue.get()).contains("a");

    queue.add("a");
    queue.add("a");
    assertThat(queue.len()).as("not queued while processing").isZero();
    CompletableFuture<Optional<String>> other = Waits.getAsync(queue, "other-worker");
    Await.until("the other worker waits", Waits.TIMEOUT, () -> queue.waitingWorkers() == 1);
    assertThat(other).as("the other worker must not get the item being processed").isNotDone();

    queue.done("a");

    assertThat(other.get(10, TimeUnit.SECONDS)).contains("a");
    assertThat(queue.len()).as("re-queued once").isZero();
  }

  @Test
  void done_requeuesAtTheBack() throws Exception {
    queue.add("a");
    assertThat(queue.get()).contains("a");
    queue.add("a");
    queue.add("b");

    queue.done("a");

    assertThat(queue.get()).contains("b");
    assertThat(queue.get()).contains("a");
  }

  @Test
  void done_withoutAddDuringProcessing_doesNotRequeue() throws Exception {
    queue.add("a");
    queue.done(queue.get().orElseThrow());

    assertThat(queue.len()).isZero();
    queue.shutDown();
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void done_forItemNotBeingProcessed_throws() throws Exception {
    queue.add("a");
    assertThatThrownBy(() -> queue.done("a"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("WorkQueue[pods]")
        .hasMessageContaining("not being processed");

    queue.done(queue.get().orElseThrow());
    assertThatThrownBy(() -> queue.done("a")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void add_null_isRejected() {
    assertThatThrownBy(() -> queue.add(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void get_blocksUntilAnItemIsAdded() throws Exception {
    CompletableFuture<Optional<String>> worker = Waits.getAsync(queue, "worker");
    Await.until("the worker waits", Waits.TIMEOUT, () -> queue.waitingWorkers() == 1);
    assertThat(worker).isNotDone();

    queue.add("a");

    assertThat(worker.get(10, TimeUnit.SECONDS)).contains("a");
  }

  @Test
  void get_whileWaiting_isInterruptible_andTheNextItemGoesToAnotherWorker() throws Exception {
    CompletableFuture<Optional<String>> interrupted = new CompletableFuture<>();
    Thread worker = new Thread(() -> {
      try {
        interrupted.complete(queue.get());
      } catch (Throwable e) {
        interrupted.completeExceptionally(e);
      }
    }, "interrupted-worker");
    worker.start();
    Await.until("the worker waits", Waits.TIMEOUT, () -> queue.waitingWorkers() == 1);

    worker.interrupt();

    assertThatThrownBy(() -> interrupted.get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(InterruptedException.class);
    queue.add("a");
    assertThat(queue.get()).contains("a");
  }

  @Test
  void get_returnsEmpty_onShutDown_forEveryWaitingWorker() throws Exception {
    CompletableFuture<Optional<String>> first = Waits.getAsync(queue, "worker-1");
    CompletableFuture<Optional<String>> second = Waits.getAsync(queue, "worker-2");
    Await.until("both workers wait", Waits.TIMEOUT, () -> queue.waitingWorkers() == 2);

    queue.shutDown();

    assertThat(first.get(10, TimeUnit.SECONDS)).isEmpty();
    assertThat(second.get(10, TimeUnit.SECONDS)).isEmpty();
    assertThat(queue.isShuttingDown()).isTrue();
  }

  @Test
  void get_afterShutDown_handsOutQueuedItems_thenEmpty() throws Exception {
    queue.add("a");
    queue.add("b");
    queue.shutDown();
    queue.add("c");

    assertThat(queue.get()).contains("a");
    assertThat(queue.get()).contains("b");
    assertThat(queue.get()).isEmpty();
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void done_afterShutDown_stillRequeuesItemAddedDuringProcessing() throws Exception {
    queue.add("a");
    assertThat(queue.get()).contains("a");
    queue.add("a");
    queue.shutDown();

    queue.done("a");

    assertThat(queue.get()).contains("a");
    queue.done("a");
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void shutDownWithDrain_waitsUntilEveryItemBeingProcessedIsDone() throws Exception {
    queue.add("a");
    queue.add("b");
    String a = queue.get().orElseThrow();
    String b = queue.get().orElseThrow();
    CompletableFuture<Void> drain = CompletableFuture.runAsync(() -> {
      try {
        queue.shutDownWithDrain();
      } catch (InterruptedException e) {
        throw new RuntimeException(e);
      }
    });
    Await.until("the drain waits", Waits.TIMEOUT, queue::drainWaiting);
    assertThat(queue.isShuttingDown()).isTrue();

    queue.done(a);
    Await.until("the drain waits again", Waits.TIMEOUT, queue::drainWaiting);
    assertThat(drain).as("b is still processing").isNotDone();

    queue.done(b);
    drain.get(10, TimeUnit.SECONDS);
  }

  @Test
  void shutDownWithDrain_returnsAtOnce_whenNothingIsProcessing() throws Exception {
    queue.add("a");

    queue.shutDownWithDrain();

    assertThat(queue.get()).as("queued items are still handed out").contains("a");
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void shutDown_releasesWaitingDrain() throws Exception {
    queue.add("a");
    queue.get();
    CompletableFuture<Void> drain = CompletableFuture.runAsync(() -> {
      try {
        queue.shutDownWithDrain();
      } catch (InterruptedException e) {
        throw new RuntimeException(e);
      }
    });
    Await.until("the drain waits", Waits.TIMEOUT, queue::drainWaiting);

    queue.shutDown();

    drain.get(10, TimeUnit.SECONDS);
  }

  @Test
  void waitingWorkers_areServedInTheOrderTheyStartedWaiting() throws Exception {
    List<CompletableFuture<Optional<String>>> workers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      workers.add(Waits.getAsync(queue, "worker-" + i));
      int waiting = i + 1;
      Await.until(waiting + " workers wait", Waits.TIMEOUT, () -> queue.waitingWorkers() == waiting);
    }

    for (int i = 0; i < 5; i++) {
      queue.add("item-" + i);
    }

    for (int i = 0; i < 5; i++) {
      assertThat(workers.get(i).get(10, TimeUnit.SECONDS)).contains("item-" + i);
    }
  }

  @Test
  void metrics_countAddsDepthLatencyAndWork() throws Exception {
    queue.add("a");
    queue.add("b");
    clock.advance(Duration.ofSeconds(2));
    String a = queue.get().orElseThrow();
    clock.advance(Duration.ofSeconds(3));
    String b = queue.get().orElseThrow();
    clock.advance(Duration.ofSeconds(1));

    WorkQueueMetrics during = queue.metrics();
    assertThat(during.name()).isEqualTo("pods");
    assertThat(during.depth()).isZero();
    assertThat(during.adds()).isEqualTo(2);
    assertThat(during.queueLatency().count()).isEqualTo(2);
    assertThat(during.queueLatency().sum()).isEqualTo(Duration.ofSeconds(7));
    assertThat(during.queueLatency().max()).isEqualTo(Duration.ofSeconds(5));
    assertThat(during.longestRunningProcessor()).isEqualTo(Duration.ofSeconds(4));
    assertThat(during.unfinishedWork()).isEqualTo(Duration.ofSeconds(5));

    queue.done(a);
    queue.done(b);
    queue.add("c");

    WorkQueueMetrics after = queue.metrics();
    assertThat(after.depth()).isEqualTo(1);
    assertThat(after.adds()).isEqualTo(3);
    assertThat(after.workDuration().count()).isEqualTo(2);
    assertThat(after.workDuration().sum()).isEqualTo(Duration.ofSeconds(5));
    assertThat(after.workDuration().max()).isEqualTo(Duration.ofSeconds(4));
    assertThat(after.longestRunningProcessor()).isZero();
    assertThat(after.unfinishedWork()).isZero();
  }

  @Test
  void builder_rejectsBlankName() {
    assertThatThrownBy(() -> WorkQueue.<String>builder().name(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
  }
}

package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SchedulingQueueTest {

  private final FakeClock clock = new FakeClock();
  private final SchedulingQueue queue = new SchedulingQueue(clock);

  @AfterEach
  void close() {
    queue.close();
  }

  private String popName() throws InterruptedException {
    return queue.pop().pod().object().name();
  }

  private static int[] sizes(int active, int backoff, int unschedulable) {
    return new int[] {active, backoff, unschedulable};
  }

  @Test
  void pop_givesHigherPriorityFirst_thenArrivalOrder() throws Exception {
    queue.add(podInfo(pod("a")));
    clock.advance(Duration.ofMillis(1));
    queue.add(podInfo(spec(pod("b"), "priority", "10")));
    clock.advance(Duration.ofMillis(1));
    queue.add(podInfo(pod("c")));
    assertThat(popName()).isEqualTo("b");
    assertThat(popName()).isEqualTo("a");
    assertThat(popName()).isEqualTo("c");
  }

  @Test
  void unschedulablePod_waitsForAMove_thenServesItsBackoffFirst() throws Exception {
    queue.add(podInfo(pod("p")));
    queue.unschedulable(queue.pop());
    assertThat(queue.sizes()).isEqualTo(sizes(0, 0, 1));

    queue.moveAllToActiveOrBackoff(); // within its 1 s backoff
    assertThat(queue.sizes()).isEqualTo(sizes(0, 1, 0));
    clock.advance(Duration.ofMillis(999));
    assertThat(queue.sizes()).isEqualTo(sizes(0, 1, 0));
    clock.advance(Duration.ofMillis(1));
    assertThat(queue.sizes()).isEqualTo(sizes(1, 0, 0));
    assertThat(popName()).isEqualTo("p");
  }

  @Test
  void moveAfterBackoffPassed_goesStraightToActive() throws Exception {
    queue.add(podInfo(pod("p")));
    queue.unschedulable(queue.pop());
    clock.advance(Duration.ofSeconds(2));
    queue.moveAllToActiveOrBackoff();
    assertThat(queue.sizes()).isEqualTo(sizes(1, 0, 0));
  }

  @Test
  void moveOfSomePods_retriesOnlyThoseThePredicateAccepts() throws Exception {
    queue.add(podInfo(pod("plain")));
    queue.add(podInfo(spec(pod("spread"), "topologySpreadConstraints", "[{\"maxSkew\":1,"
        + "\"topologyKey\":\"zone\",\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{}}]")));
    queue.unschedulable(queue.pop());
    queue.unschedulable(queue.pop());
    clock.advance(Duration.ofSeconds(2));

    queue.moveAllToActiveOrBackoff(p -> !p.spreadConstraints().isEmpty());

    assertThat(queue.sizes()).isEqualTo(sizes(1, 0, 1));
    assertThat(popName()).isEqualTo("spread");
    assertThat(queue.isUnschedulable("default/plain")).isTrue();
  }

  @Test
  void moveWhileInFlight_sendsTheFailedPodToBackoff_notUnschedulable() throws Exception {
    queue.add(podInfo(pod("p")));
    SchedulingQueue.QueuedPod q = queue.pop();
    queue.moveAllToActiveOrBackoff(); // a node arrived during the attempt
    queue.unschedulable(q);
    assertThat(queue.sizes()).isEqualTo(sizes(0, 1, 0));
  }

  @Test
  void specChangeOfUnschedulablePod_retriesIt_statusChangeDoesNot() throws Exception {
    queue.add(podInfo(pod("p")));
    queue.unschedulable(queue.pop());
    var withStatus = pod("p");
    withStatus.putObject("status").put("phase", "Pending");
    queue.update(podInfo(withStatus));
    assertThat(queue.isUnschedulable("default/p")).isTrue();

    clock.advance(Duration.ofSeconds(5));
    queue.update(podInfo(spec(pod("p"), "nodeSelector", "{\"a\":\"b\"}")));
    assertThat(queue.sizes()).isEqualTo(sizes(1, 0, 0));
  }

  @Test
  void backoff_doublesPerAttempt_upToTenSeconds() {
    assertThat(SchedulingQueue.backoffDuration(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(SchedulingQueue.backoffDuration(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(SchedulingQueue.backoffDuration(4)).isEqualTo(Duration.ofSeconds(8));
    assertThat(SchedulingQueue.backoffDuration(5)).isEqualTo(Duration.ofSeconds(10));
    assertThat(SchedulingQueue.backoffDuration(50)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void unschedulableForFiveMinutes_isRetriedWithoutAnyMove() throws Exception {
    queue.start();
    queue.add(podInfo(pod("p")));
    queue.unschedulable(queue.pop());
    clock.advance(Duration.ofMinutes(4));
    assertThat(queue.sizes()).isEqualTo(sizes(0, 0, 1));
    clock.advance(Duration.ofMinutes(1).plusSeconds(30));
    assertThat(queue.sizes()).isEqualTo(sizes(1, 0, 0));
  }

  @Test
  void deletedPods_leaveTheQueue_evenWhenInFlight() throws Exception {
    queue.add(podInfo(pod("a")));
    queue.add(podInfo(pod("b")));
    SchedulingQueue.QueuedPod a = queue.pop();
    queue.delete("default/a");
    queue.delete("default/b");
    queue.unschedulable(a);
    assertThat(queue.sizes()).isEqualTo(sizes(0, 0, 0));
  }

  @Test
  void pop_waitsForAPod_andReturnsNullOnClose() throws Exception {
    CompletableFuture<String> popped = CompletableFuture.supplyAsync(() -> {
      try {
        return popName();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    queue.add(podInfo(pod("late")));
    assertThat(popped.get(10, TimeUnit.SECONDS)).isEqualTo("late");

    CompletableFuture<SchedulingQueue.QueuedPod> none = CompletableFuture.supplyAsync(() -> {
      try {
        return queue.pop();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    queue.close();
    assertThat(none.get(10, TimeUnit.SECONDS)).isNull();
  }
}

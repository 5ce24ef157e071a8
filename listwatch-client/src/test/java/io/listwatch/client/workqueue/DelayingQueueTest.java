package io.listwatch.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.Clock;
import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DelayingQueueTest {

  private final FakeClock clock = new FakeClock();
  private final DefaultDelayingQueue<String> queue =
      (DefaultDelayingQueue<String>)
          DelayingQueue.<String>builder().name("deployments").clock(clock).build();

  @Test
  void addAfter_deliversOnlyWhenTheClockReachesTheReadyTime() throws Exception {
    queue.addAfter("a", Duration.ofSeconds(10));
    assertThat(queue.len()).isZero();

    clock.advance(Duration.ofSeconds(10).minusNanos(1));
    assertThat(queue.len()).as("one nanosecond early").isZero();

    clock.advance(Duration.ofNanos(1));
    assertThat(queue.len()).isEqualTo(1);
    assertThat(queue.get()).contains("a");
  }

  /**
   * Time that passes between the queue's reading of the clock and its scheduling of the timer
   * (here a whole second: the clock moves on after each reading) does not make the item late,
   * nor let an earlier addAfter of the same item lose to the one it should replace.
   */
  @Test
  void addAfter_isReadyAtItsReadyTime_evenIfTheClockMovesBeforeTheTimerIsScheduled() throws Exception {
    FakeClock fake = new FakeClock();
    Clock moving = new Clock() {
      @Override
      public long nanoTime() {
        long now = fake.nanoTime();
        fake.advance(Duration.ofSeconds(1)); // the thread is descheduled right after reading
        return now;
      }

      @Override
      public Instant now() {
        return fake.now();
      }

      @Override
      public void sleep(Duration duration) throws InterruptedException {
        fake.sleep(duration);
      }

      @Override
      public Cancellable schedule(Duration delay, Runnable task) {
        return fake.schedule(delay, task);
      }

      @Override
      public Cancellable scheduleAt(long atNanos, Runnable task) {
        return fake.scheduleAt(atNanos, task);
      }
    };
    DelayingQueue<String> q = DelayingQueue.<String>builder().name("moving").clock(moving).build();
    long start = fake.nanoTime();

    q.addAfter("a", Duration.ofSeconds(10)); // ready at start + 10 s; the clock is at start + 1 s

    fake.advance(Duration.ofSeconds(9).minusNanos(1));
    assertThat(q.len()).as("one nanosecond early").isZero();
    fake.advance(Duration.ofNanos(1));
    assertThat(fake.nanoTime() - start).isEqualTo(Duration.ofSeconds(10).toNanos());
    assertThat(q.len()).as("ready at its ready time, not a second late").isEqualTo(1);
    q.shutDown();
  }

  @Test
  void addAfter_zeroOrNegativeDelay_addsNow() throws Exception {
    queue.addAfter("a", Duration.ZERO);
    queue.addAfter("b", Duration.ofSeconds(-1));

    assertThat(queue.len()).isEqualTo(2);
    assertThat(clock.pendingTasks()).isZero();
    assertThat(queue.get()).contains("a");
    assertThat(queue.get()).contains("b");
  }

  @Test
  void addAfter_sameItemWithEarlierTime_movesItEarlier_andIsAddedOnce() throws Exception {
    queue.addAfter("a", Duration.ofSeconds(10));
    queue.addAfter("a", Duration.ofSeconds(5));

    clock.advance(Duration.ofSeconds(5));
    assertThat(queue.len()).isEqualTo(1);
    queue.done(queue.get().orElseThrow());

    clock.advance(Duration.ofSeconds(10));
    assertThat(queue.len()).as("the later time was replaced, not kept").isZero();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_sameItemWithLaterTime_keepsTheEarlierTime() throws Exception {
    queue.addAfter("a", Duration.ofSeconds(5));
    clock.advance(Duration.ofSeconds(1));
    queue.addAfter("a", Duration.ofSeconds(10));

    clock.advance(Duration.ofSeconds(4));
    assertThat(queue.len()).isEqualTo(1);
    queue.done(queue.get().orElseThrow());

    clock.advance(Duration.ofSeconds(20));
    assertThat(queue.len()).isZero();
    assertThat(queue.waitingItems()).isZero();
  }

  @Test
  void addAfter_itemsReadyTogether_arriveInReadyTimeOrder() throws Exception {
    queue.addAfter("late", Duration.ofSeconds(3));
    queue.addAfter("early", Duration.ofSeconds(1));
    queue.addAfter("middle", Duration.ofSeconds(2));
    queue.add("now");

    clock.advance(Duration.ofSeconds(3));

    assertThat(queue.get()).contains("now");
    assertThat(queue.get()).contains("early");
    assertThat(queue.get()).contains("middle");
    assertThat(queue.get()).contains("late");
  }

  @Test
  void addAfter_itemAlreadyQueued_isDeduplicatedWhenReady() throws Exception {
    queue.add("a");
    queue.addAfter("a", Duration.ofSeconds(1));

    clock.advance(Duration.ofSeconds(1));

    assertThat(queue.len()).isEqualTo(1);
  }

  @Test
  void shutDown_dropsWaitingItems_andCancelsTheirTimers() throws Exception {
    queue.addAfter("a", Duration.ofSeconds(1));
    queue.addAfter("b", Duration.ofSeconds(2));
    assertThat(clock.pendingTasks()).isEqualTo(2);

    queue.shutDown();

    assertThat(clock.pendingTasks()).isZero();
    assertThat(queue.waitingItems()).isZero();
    queue.addAfter("c", Duration.ofSeconds(1));
    assertThat(clock.pendingTasks()).isZero();
    clock.advance(Duration.ofSeconds(5));
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void shutDownWithDrain_dropsWaitingItems() throws Exception {
    queue.addAfter("a", Duration.ofSeconds(1));

    queue.shutDownWithDrain();

    assertThat(clock.pendingTasks()).isZero();
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void addAfter_hugeDelay_waitsWithoutOverflow() {
    queue.addAfter("a", Duration.ofDays(365L * 1_000_000));

    clock.advance(Duration.ofDays(365L * 70));

    assertThat(queue.len()).isZero();
    assertThat(queue.waitingItems()).isEqualTo(1);
  }

  @Test
  void metrics_countEveryAddAfterAsRetry() {
    queue.addAfter("a", Duration.ZERO);
    queue.addAfter("b", Duration.ofSeconds(1));
    queue.addAfter("b", Duration.ofSeconds(2));

    assertThat(queue.metrics().retries()).isEqualTo(3);
    assertThat(queue.metrics().name()).isEqualTo("deployments");
  }
}

package io.listwatch.api.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class FakeClockTest {

  private final FakeClock clock = new FakeClock();

  @Test
  void advance_runsDueTasksInDueOrder_andLeavesLaterOnes() {
    List<String> ran = new ArrayList<>();
    clock.schedule(Duration.ofSeconds(3), () -> ran.add("c"));
    clock.schedule(Duration.ofSeconds(1), () -> ran.add("a"));
    clock.schedule(Duration.ofSeconds(1), () -> ran.add("b"));

    clock.advance(Duration.ofSeconds(2));

    assertThat(ran).containsExactly("a", "b");
    assertThat(clock.pendingTasks()).isEqualTo(1);
    assertThat(clock.nextDue()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void advance_runsTasksScheduledByTasks_whenTheyAreDue() {
    List<Long> at = new ArrayList<>();
    clock.schedule(Duration.ofSeconds(1), () -> {
      at.add(clock.nanoTime());
      clock.schedule(Duration.ofSeconds(1), () -> at.add(clock.nanoTime()));
    });

    clock.advance(Duration.ofSeconds(5));

    assertThat(at).containsExactly(1_000_000_000L, 2_000_000_000L);
    assertThat(clock.nanoTime()).isEqualTo(5_000_000_000L);
  }

  @Test
  void cancel_preventsTheTask() {
    List<String> ran = new ArrayList<>();
    Clock.Cancellable handle = clock.schedule(Duration.ofSeconds(1), () -> ran.add("x"));

    assertThat(handle.cancel()).isTrue();
    clock.advance(Duration.ofSeconds(2));

    assertThat(ran).isEmpty();
    assertThat(handle.cancel()).isFalse();
  }

  @Test
  void sleep_returnsOnlyOnceTimeReachesTheEnd() throws Exception {
    CountDownLatch woke = new CountDownLatch(1);
    Thread sleeper = Thread.ofVirtual().start(() -> {
      try {
        clock.sleep(Duration.ofSeconds(10));
        woke.countDown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertThat(clock.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();

    clock.advance(Duration.ofSeconds(9));
    assertThat(clock.sleepers()).isEqualTo(1);
    assertThat(woke.getCount()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    assertThat(woke.await(5, TimeUnit.SECONDS)).isTrue();
    sleeper.join();
  }

  @Test
  void hugeDelays_doNotWrapAround() {
    List<String> ran = new ArrayList<>();
    clock.advance(Duration.ofSeconds(1));
    clock.schedule(Duration.ofSeconds(Long.MAX_VALUE), () -> ran.add("never"));

    clock.advance(Duration.ofDays(365));

    assertThat(ran).isEmpty();
  }

  @Test
  void advance_rejectsNegativeDurations() {
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void now_movesWithNanoTime() {
    var start = clock.now();
    clock.advance(Duration.ofMillis(1500));
    assertThat(Duration.between(start, clock.now())).isEqualTo(Duration.ofMillis(1500));
  }
}

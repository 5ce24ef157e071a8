package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final Backoff backoff = new Backoff(clock, Duration.ofSeconds(10), Duration.ofMinutes(5));

  @Test
  void next_startsAtTheInitial_andDoublesUpToTheMaximum() {
    List<Duration> steps = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      backoff.next("pod", clock.now());
      steps.add(backoff.get("pod"));
      clock.advance(backoff.get("pod"));
    }
    assertThat(steps).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(40),
        Duration.ofSeconds(80), Duration.ofSeconds(160), Duration.ofMinutes(5), Duration.ofMinutes(5));
  }

  @Test
  void isInBackOffSince_anEvent_untilTheBackOffHasPassedSinceIt() {
    Instant exit = clock.now();
    assertThat(backoff.isInBackOffSince("pod", exit)).as("no back-off yet").isFalse();
    backoff.next("pod", exit);
    clock.advance(Duration.ofSeconds(9));
    assertThat(backoff.isInBackOffSince("pod", exit)).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(backoff.isInBackOffSince("pod", exit)).isFalse();
    assertThat(backoff.isInBackOffSince("other", exit)).isFalse();
  }

  @Test
  void aStepMoreThanTwiceTheMaximumAfterTheLast_startsOver() {
    backoff.next("pod", clock.now());
    backoff.next("pod", clock.now());
    assertThat(backoff.get("pod")).isEqualTo(Duration.ofSeconds(20));

    clock.advance(Duration.ofMinutes(10));
    assertThat(backoff.isInBackOffSince("pod", clock.now())).as("10 min is not yet expired").isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(backoff.isInBackOffSince("pod", clock.now())).isFalse();
    backoff.next("pod", clock.now());
    assertThat(backoff.get("pod")).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void reset_forgetsTheKey() {
    backoff.next("pod", clock.now());
    backoff.reset("pod");
    assertThat(backoff.get("pod")).isEqualTo(Duration.ZERO);
    assertThat(backoff.isInBackOffSince("pod", clock.now())).isFalse();
  }

  @Test
  void constructor_refusesANonPositiveInitialOrOneOverTheMaximum() {
    assertThatThrownBy(() -> new Backoff(clock, Duration.ZERO, Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(clock, Duration.ofMinutes(6), Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

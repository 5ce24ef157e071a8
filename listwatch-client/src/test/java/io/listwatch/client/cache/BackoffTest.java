package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class BackoffTest {

  private static final long[] BASES_MS = {800, 1600, 3200, 6400, 12800, 25600, 30000, 30000};

  private final FakeClock clock = new FakeClock();

  @Test
  void next_doublesFromInitialToTheCap_plusJitterOfUpToOneBase() {
    Backoff backoff = Backoff.reflectorDefaults(Duration.ofMillis(800), Duration.ofSeconds(30),
        clock, new Random(42));
    Random expected = new Random(42);

    for (long baseMs : BASES_MS) {
      long base = Duration.ofMillis(baseMs).toNanos();
      Duration delay = backoff.next();
      assertThat(delay.toNanos())
          .isEqualTo(base + (long) (expected.nextDouble() * base))
          .isBetween(base, 2 * base - 1);
    }
  }

  @Test
  void next_isJittered_soClientsThatFailTogetherDoNotRetryTogether() {
    List<Duration> firstDelays = new ArrayList<>();
    for (int seed = 0; seed < 10; seed++) {
      firstDelays.add(Backoff.reflectorDefaults(Duration.ofMillis(800), Duration.ofSeconds(30),
          clock, new Random(seed)).next());
    }
    assertThat(firstDelays).doesNotHaveDuplicates()
        .allMatch(d -> d.compareTo(Duration.ofMillis(800)) >= 0
            && d.compareTo(Duration.ofMillis(1600)) < 0);
  }

  @Test
  void next_withoutJitter_isExactlyExponential_andCapped() {
    Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30),
        Duration.ofMinutes(2), 2.0, 0.0, clock, new Random(1));

    for (long baseMs : BASES_MS) {
      assertThat(backoff.next()).isEqualTo(Duration.ofMillis(baseMs));
    }
  }

  @Test
  void next_startsOver_onlyAfterResetAfterWithoutFailures() {
    Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30),
        Duration.ofMinutes(2), 2.0, 0.0, clock, new Random(1));
    backoff.next();
    backoff.next();
    clock.advance(Duration.ofMinutes(2));
    assertThat(backoff.next()).as("exactly the reset period is not more").isEqualTo(Duration.ofMillis(3200));
    clock.advance(Duration.ofMinutes(2).plusNanos(1));
    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(800));
    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(1600));
  }

  @Test
  void constructor_rejectsOutOfRangeValues() {
    Random random = new Random(1);
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1),
        Duration.ofMinutes(1), 2, 1, clock, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initial");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1),
        Duration.ofMinutes(1), 2, 1, clock, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max backoff");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofMinutes(1), 0.5, 1, clock, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("factor");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofMinutes(1), 2, -1, clock, random))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jitter");
  }
}

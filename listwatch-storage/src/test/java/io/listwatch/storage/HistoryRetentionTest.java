package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HistoryRetentionTest {

  private final HistoryRetention tenRevisionsOrAMinute = new HistoryRetention(Duration.ofMinutes(1), 10);

  @Test
  void compactionTarget_isTheOlderOfBothBounds() {
    assertThat(tenRevisionsOrAMinute.compactionTarget(100, 95)).as("the count bound keeps more").isEqualTo(90);
    assertThat(tenRevisionsOrAMinute.compactionTarget(100, 40)).as("the time bound keeps more").isEqualTo(40);
  }

  @Test
  void compactionTarget_isNone_whenEitherBoundKeepsEverything() {
    assertThat(tenRevisionsOrAMinute.compactionTarget(8, 5)).as("fewer revisions than the minimum").isZero();
    assertThat(tenRevisionsOrAMinute.compactionTarget(100, 0)).as("nothing older than the period").isZero();
  }

  @Test
  void negativeOrAbsurdBounds_areRefused() {
    assertThatThrownBy(() -> tenRevisionsOrAMinute.withPeriod(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tenRevisionsOrAMinute.withPeriod(Duration.ofDays(365L * 2000)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tenRevisionsOrAMinute.withMinRevisions(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(HistoryRetention.DEFAULT).isEqualTo(new HistoryRetention(Duration.ofMinutes(5), 100_000));
  }
}

package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HumanDurationTest {

  @Test
  void format_followsKubesSteps() {
    assertThat(HumanDuration.format(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
    assertThat(HumanDuration.format(Duration.ofMillis(-500))).isEqualTo("0s");
    assertThat(HumanDuration.format(Duration.ofSeconds(95))).isEqualTo("95s");
    assertThat(HumanDuration.format(Duration.ofSeconds(200))).isEqualTo("3m20s");
    assertThat(HumanDuration.format(Duration.ofMinutes(5))).isEqualTo("5m");
    assertThat(HumanDuration.format(Duration.ofMinutes(150))).isEqualTo("150m");
    assertThat(HumanDuration.format(Duration.ofMinutes(310))).isEqualTo("5h10m");
    assertThat(HumanDuration.format(Duration.ofHours(30))).isEqualTo("30h");
    assertThat(HumanDuration.format(Duration.ofHours(76))).isEqualTo("3d4h");
    assertThat(HumanDuration.format(Duration.ofDays(30))).isEqualTo("30d");
    assertThat(HumanDuration.format(Duration.ofDays(365 * 3 + 10))).isEqualTo("3y10d");
    assertThat(HumanDuration.format(Duration.ofDays(365 * 9))).isEqualTo("9y");
  }

  @Test
  void since_withoutATime_isUnknown() {
    assertThat(HumanDuration.since(null, Rows.NOW)).isEqualTo("<unknown>");
  }
}

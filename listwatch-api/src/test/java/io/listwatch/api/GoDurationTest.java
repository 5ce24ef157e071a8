package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GoDurationTest {

  @Test
  void format_writesGosDurationStrings() {
    assertThat(GoDuration.format(0)).isEqualTo("0s");
    assertThat(GoDuration.format(1)).isEqualTo("1ns");
    assertThat(GoDuration.format(1_500)).isEqualTo("1.5µs");
    assertThat(GoDuration.format(300_000_000)).isEqualTo("300ms");
    assertThat(GoDuration.format(1_500_000_000)).isEqualTo("1.5s");
    assertThat(GoDuration.format(90_000_000_000L)).isEqualTo("1m30s");
    assertThat(GoDuration.format(3_723_000_000_000L)).isEqualTo("1h2m3s");
    assertThat(GoDuration.format(3_600_000_000_000L)).isEqualTo("1h0m0s");
    assertThat(GoDuration.format(-2_000_000_000L)).isEqualTo("-2s");
  }

  @Test
  void parse_readsWhatGoParses() {
    assertThat(GoDuration.parse("0")).isZero();
    assertThat(GoDuration.parse("1h2m3.5s")).isEqualTo(3_723_500_000_000L);
    assertThat(GoDuration.parse("300ms")).isEqualTo(300_000_000L);
    assertThat(GoDuration.parse("2us")).isEqualTo(2_000L);
    assertThat(GoDuration.parse("-1.5h")).isEqualTo(-5_400_000_000_000L);
    assertThatThrownBy(() -> GoDuration.parse("5")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoDuration.parse("1x")).isInstanceOf(IllegalArgumentException.class);
  }
}

package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which seconds {@link HostProbe} calls slow, and that its two threads wake each other across two CPUs. */
class HostProbeTest {

  /** 10:00:00 UTC on 2026-12-01, in ms since the epoch. */
  private static final long T0 = 1_796_133_600_000L;

  /** Ten wakes a second each way for {@code seconds} seconds from {@code fromSecond}, each costing {@code micros}. */
  private static void wakes(List<HostProbe.Sample> into, int fromSecond, int seconds, long micros) {
    for (int i = 0; i < seconds * 10; i++) {
      into.add(new HostProbe.Sample(0, 1, T0 + fromSecond * 1000L + i * 100L, micros * 1000));
      into.add(new HostProbe.Sample(1, 0, T0 + fromSecond * 1000L + i * 100L + 1, micros * 1000));
    }
  }

  @Test
  void aSecondIsSlow_withTwoWakesOrMoreOverAMillisecond_eitherWay() {
    List<HostProbe.Sample> s = new ArrayList<>();
    wakes(s, 0, 10, 40); // 40 µs a wake, as usual on this machine
    s.add(new HostProbe.Sample(0, 1, T0 + 2_100, 3_500_000)); // second 2: one slow wake, not enough
    s.add(new HostProbe.Sample(0, 1, T0 + 5_100, 3_500_000)); // second 5: two, one each way
    s.add(new HostProbe.Sample(1, 0, T0 + 5_600, 3_000_000));
    s.add(new HostProbe.Sample(0, 1, T0 + 7_100, 1_000_000)); // second 7: two at exactly 1 ms, not over
    s.add(new HostProbe.Sample(0, 1, T0 + 7_200, 1_000_000));
    wakes(s, 12, 3, 3_700); // seconds 12-14: every wake 3.7 ms, as in the host's slow mode

    assertThat(HostProbe.slowSeconds(s, T0, T0 + 20_000))
        .containsExactly(T0 / 1000 + 5, T0 / 1000 + 12, T0 / 1000 + 13, T0 / 1000 + 14);
    assertThat(HostProbe.slowSeconds(s, T0 + 6_000, T0 + 13_000)).as("only the seconds asked for")
        .containsExactly(T0 / 1000 + 12);
    assertThat(HostProbe.slowSeconds(List.of(), T0, T0 + 10_000)).isEmpty();
  }

  @Test
  void cpus_readTasksetsListForm() {
    assertThat(HostProbe.cpus("1")).containsExactly(1);
    assertThat(HostProbe.cpus("0-1")).containsExactly(0, 1);
    assertThat(HostProbe.cpus("0,2-3,2")).containsExactly(0, 2, 3);
    assertThatThrownBy(() -> HostProbe.cpus("3-1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HostProbe.start(1, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  /** The machine has two CPUs, as the README asks of a machine that runs the tests. */
  @Test
  void probe_wakesEachWayBetweenTheTwoCpus_andTimesEachWake() throws Exception {
    List<Integer> cpus = HostProbe.cpus(CpuAffinity.online());
    try (HostProbe probe = HostProbe.start(cpus.get(0), cpus.get(1))) {
      Await.until("three wakes each way", Duration.ofSeconds(10), () -> {
        assertThat(probe.problems()).isEmpty();
        List<HostProbe.Sample> taken = probe.samples();
        return taken.stream().filter(w -> w.fromCpu() == cpus.get(0)).count() >= 3
            && taken.stream().filter(w -> w.fromCpu() == cpus.get(1)).count() >= 3;
      });
      assertThat(probe.samples()).allSatisfy(w -> {
        assertThat(w.toCpu()).isNotEqualTo(w.fromCpu());
        assertThat(w.wakerNanos()).isPositive();
      });
      assertThat(probe.describe()).isEqualTo(cpus.get(0) + " and " + cpus.get(1));
    }
  }
}

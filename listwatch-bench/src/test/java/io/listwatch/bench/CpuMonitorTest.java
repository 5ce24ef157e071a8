package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** CPU in percent of one core is of the machine's cores, whatever CPUs the benchmark is pinned to. */
class CpuMonitorTest {

  private static CpuMonitor snapshot(long user, long idle, long selfTicks) {
    return snapshot(user, idle, 0, selfTicks);
  }

  private static CpuMonitor snapshot(long user, long idle, long steal, long selfTicks) {
    // four CPUs (more than this machine's two): the first line is their sum
    return CpuMonitor.ofProcStat(List.of(
        "cpu  " + user + " 0 0 " + idle + " 0 0 0 " + steal + " 0 0",
        "cpu0 0 0 0 0 0 0 0 0 0 0",
        "cpu1 0 0 0 0 0 0 0 0 0 0",
        "cpu2 0 0 0 0 0 0 0 0 0 0",
        "cpu3 0 0 0 0 0 0 0 0 0 0",
        "intr 12345",
        "ctxt 678"), selfTicks, 0);
  }

  @Test
  void percentOfOneCore_countsTheMachinesCpus_fromProcStat() {
    CpuMonitor start = snapshot(0, 0, 0);
    // 10 s at 100 ticks a second on four CPUs: 4,000 ticks, 1,000 of them busy, all this process's
    CpuMonitor end = snapshot(1000, 3000, 1000);

    assertThat(end.cpus()).isEqualTo(4);
    assertThat(end.selfPercentSince(start)).as("one whole core of four").isEqualTo(100.0);
    assertThat(end.machineBusyPercentSince(start)).isEqualTo(100.0);
    assertThat(end.othersSince(start)).isEqualTo("0%");
  }

  @Test
  void stealTime_isTheHypervisors_notAnotherProcesssCpu() {
    CpuMonitor start = snapshot(0, 0, 0, 0);
    // 10 s on four CPUs: this process one core, the hypervisor a fifth of one
    CpuMonitor end = snapshot(1000, 2800, 200, 1000);

    assertThat(end.stolenSince(start)).isEqualTo("20.0%");
    assertThat(end.othersSince(start)).as("steal is no process's").isEqualTo("0%");
    assertThat(end.machineBusyPercentSince(start)).isEqualTo(100.0);
  }

  @Test
  void now_readsThisMachine() {
    CpuMonitor now = CpuMonitor.now();

    assertThat(now.cpus()).as("the machine's CPUs, not the ones this JVM may use")
        .isGreaterThanOrEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(now.machineTotalTicks()).isPositive();
  }
}

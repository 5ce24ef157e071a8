package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CpuAffinityTest {

  private static String allowedCpus(long pid) throws Exception {
    return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
        .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
        .substring("Cpus_allowed_list:".length()).strip();
  }

  @Test
  void pinsAProcess_toTheCpusGiven() throws Exception {
    Process child = new ProcessBuilder("sleep", "60").start();
    try {
      CpuAffinity.pin(child.pid(), "0");
      assertThat(allowedCpus(child.pid())).isEqualTo("0");
    } finally {
      child.destroy();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** The scheduling policy of {@code pid}, field 41 of its {@code /proc/<pid>/stat} (5: SCHED_IDLE, 0: normal). */
  private static int policy(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(afterName[41 - 3]);
  }

  @Test
  void aLauncherInTheIdleClass_startsTheProgramThere_onItsCpus_underItsOwnPid() throws Exception {
    List<String> command = new ArrayList<>(CpuAffinity.launcher("0", true));
    command.addAll(List.of("sleep", "60"));
    Process child = new ProcessBuilder(command).start();
    try {
      // chrt sets the class, then execs taskset, which sets the CPUs and execs sleep
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!Files.readString(Path.of("/proc/" + child.pid() + "/cmdline")).startsWith("sleep\0")) {
        assertThat(System.nanoTime()).as("sleep started by the launcher within 10 s").isLessThan(deadline);
        Thread.onSpinWait();
      }
      assertThat(policy(child.pid())).as("SCHED_IDLE").isEqualTo(5);
      assertThat(allowedCpus(child.pid())).isEqualTo("0");
      assertThat(policy(ProcessHandle.current().pid())).as("this JVM stays in the normal class").isZero();
    } finally {
      child.destroy();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aLauncherInTheNormalClass_isTasksetAlone() {
    assertThat(CpuAffinity.launcher("1", false)).containsExactly("taskset", "--cpu-list", "1");
    assertThat(CpuAffinity.launcher(null, false)).isEmpty();
    assertThat(CpuAffinity.launcher(null, true)).containsExactly("chrt", "--idle", "0");
  }

  @Test
  void aCpuTheMachineDoesNotHave_isAClearError() throws Exception {
    Process child = new ProcessBuilder("sleep", "60").start();
    try {
      String before = allowedCpus(child.pid());
      assertThatThrownBy(() -> CpuAffinity.pin(child.pid(), "4095"))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("taskset");
      assertThat(allowedCpus(child.pid())).isEqualTo(before);
    } finally {
      child.destroy();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
  }
}

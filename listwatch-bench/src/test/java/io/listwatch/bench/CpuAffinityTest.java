package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
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

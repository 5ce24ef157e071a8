package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllocationMonitorTest {

  /** A child's main: on each line of input, allocates 64 MB in small arrays, collects, and says so. */
  public static final class AllocateAndCollect {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
      System.out.println("ready");
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      while (in.readLine() != null) {
        for (int i = 0; i < 64 * 1024; i++) {
          sink = new byte[1024];
        }
        System.gc();
        System.out.println("collected");
      }
    }
  }

  @Test
  void readsAnotherJvmsAllocationsAndPauses_asTheyGrow(@TempDir Path dir) throws Exception {
    try (ChildJvm child = ChildJvm.start("allocator", List.of("-Xmx256m", "-XX:+UseG1GC"),
        AllocateAndCollect.class.getName(), List.of(), dir.resolve("child.log"))) {
      assertThat(child.awaitLine("ready"::equals, 60)).as(child.logTail(20)).isPresent();
      try (AllocationMonitor monitor = AllocationMonitor.attach(child.pid())) {
        long allocated = monitor.allocatedBytes();
        AllocationMonitor.Pauses pauses = monitor.pauses();
        long compiling = monitor.compilationMillis();
        assertThat(compiling).as("its JIT compiled its startup, in milliseconds").isNotNegative();

        child.send("go");
        assertThat(child.awaitLine("collected"::equals, 60)).as(child.logTail(20)).isPresent();

        assertThat(monitor.allocatedBytes() - allocated).isGreaterThanOrEqualTo(64L * 1024 * 1024);
        assertThat(monitor.pauses().count()).as("System.gc() is a full collection, a pause")
            .isGreaterThan(pauses.count());
        assertThat(monitor.pauses().millis()).isGreaterThanOrEqualTo(pauses.millis());
        assertThat(monitor.compilationMillis()).isGreaterThanOrEqualTo(compiling);
      }
    }
  }

  @Test
  void aJvmThatRefusesToBeAttachedTo_isUnknown_notAnError(@TempDir Path dir) throws Exception {
    try (ChildJvm child = ChildJvm.start("no-attach", List.of("-Xmx64m", "-XX:+DisableAttachMechanism"),
        AllocateAndCollect.class.getName(), List.of(), dir.resolve("child.log"))) {
      assertThat(child.awaitLine("ready"::equals, 60)).as(child.logTail(20)).isPresent();
      try (AllocationMonitor monitor = AllocationMonitor.orUnknown(child.pid())) {
        assertThat(monitor.allocatedBytes()).isEqualTo(-1);
        assertThat(monitor.pauses()).isNull();
        assertThat(monitor.compilationMillis()).isEqualTo(-1);
      }
    }
  }
}

package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmTest {

  @Test
  void withOptions_aCollectorOptionReplacesTheDefaultCollector_otherOptionsAreAdded() {
    List<String> defaults = ChildJvm.standardOptions("1g");

    assertThat(ChildJvm.withOptions(defaults, List.of("-XX:+UseZGC", "-Xlog:gc")))
        .containsExactly("-Xmx1g", "--enable-native-access=ALL-UNNAMED", "-XX:+UseZGC", "-Xlog:gc");
    assertThat(ChildJvm.withOptions(defaults, List.of("-Xlog:gc")))
        .containsExactly("-Xmx1g", "-XX:+UseG1GC", "--enable-native-access=ALL-UNNAMED", "-Xlog:gc");
  }

  /** A child's main: prints how many CPUs its JVM sized itself for. */
  public static final class PrintProcessors {
    public static void main(String[] args) {
      System.out.println("processors " + Runtime.getRuntime().availableProcessors());
    }
  }

  @Test
  void aChildStartedWithAnAffinityLauncher_sizesItselfForThoseCpus(@TempDir Path dir) throws Exception {
    try (ChildJvm child = ChildJvm.start("one-cpu", CpuAffinity.launcher("0"), System.getProperty("java.class.path"),
        List.of("-Xmx64m"), PrintProcessors.class.getName(), List.of(), dir.resolve("child.log"))) {
      assertThat(child.awaitLine(l -> l.startsWith("processors "), 60))
          .as("the child's log: %s", child.logTail(20)).contains("processors 1");
      assertThat(child.awaitExit(60)).contains(0);
    }
  }

  @Test
  void theOnlineCpus_includeEveryCpuThisJvmMayRunOn() throws Exception {
    String online = CpuAffinity.online();
    assertThat(online).matches("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");
    String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
        .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
        .substring("Cpus_allowed_list:".length()).strip();
    assertThat(cpus(online)).containsAll(cpus(allowed));
  }

  private static List<Integer> cpus(String list) {
    return java.util.Arrays.stream(list.split(",")).flatMap(range -> {
      String[] ends = range.split("-");
      int from = Integer.parseInt(ends[0]);
      int to = Integer.parseInt(ends[ends.length - 1]);
      return java.util.stream.IntStream.rangeClosed(from, to).boxed();
    }).toList();
  }
}

package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJvmTest {

  @Test
  void withOptions_aCollectorOptionReplacesTheDefaultCollector_otherOptionsAreAdded() {
    List<String> defaults = ChildJvm.standardOptions("1g");

    assertThat(ChildJvm.withOptions(defaults, List.of("-XX:+UseZGC", "-Xlog:gc")))
        .containsExactly("-Xmx1g", "--enable-native-access=ALL-UNNAMED", "-XX:+UseZGC", "-Xlog:gc");
    assertThat(ChildJvm.withOptions(defaults, List.of("-Xlog:gc")))
        .containsExactly("-Xmx1g", "-XX:+UseG1GC", "--enable-native-access=ALL-UNNAMED", "-Xlog:gc");
  }
}

package io.listwatch.controllers.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FitErrorTest {

  private static Map<String, List<String>> nodes(List<?>... reasons) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (int i = 0; i < reasons.length; i++) {
      @SuppressWarnings("unchecked")
      List<String> r = (List<String>) reasons[i];
      map.put("n" + i, r);
    }
    return map;
  }

  static Stream<Arguments> cases() {
    List<String> affinity = List.of(NodeAffinity.REASON);
    List<String> cpu = List.of("Insufficient cpu");
    List<String> cpuAndMemory = List.of("Insufficient cpu", "Insufficient memory");
    return Stream.of(
        Arguments.of(3, nodes(affinity, cpu, cpu),
            "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu."),
        Arguments.of(2, nodes(cpuAndMemory, cpu),
            "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu."),
        Arguments.of(1, nodes(List.of("node(s) had untolerated taint {node.kubernetes.io/not-ready: }")),
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }."),
        Arguments.of(2, nodes(List.of(NodeUnschedulable.REASON), List.of("Too many pods")),
            "0/2 nodes are available: 1 Too many pods, 1 node(s) were unschedulable."),
        Arguments.of(0, nodes(), "no nodes available to schedule pods"));
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource("cases")
  void message_countsReasonsOverNodes_sortedAsKubeSortsThem(int nodeCount, Map<String, List<String>> reasons,
      String message) {
    assertThat(FitError.message(nodeCount, reasons)).isEqualTo(message);
  }

  @ParameterizedTest(name = "{0} nodes")
  @MethodSource("manyNodes")
  void message_sortsEntriesAsStrings_soTenComesBeforeTwo(int cpuNodes, String message) {
    Map<String, List<String>> reasons = new LinkedHashMap<>();
    for (int i = 0; i < cpuNodes; i++) {
      reasons.put("cpu" + i, List.of("Insufficient cpu"));
    }
    reasons.put("a", List.of(NodeAffinity.REASON));
    reasons.put("b", List.of(NodeAffinity.REASON));
    assertThat(FitError.message(cpuNodes + 2, reasons)).isEqualTo(message);
  }

  static Stream<Arguments> manyNodes() {
    return Stream.of(
        Arguments.of(10, "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) didn't match Pod's node "
            + "affinity/selector."),
        Arguments.of(3, "0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, "
            + "3 Insufficient cpu."));
  }
}

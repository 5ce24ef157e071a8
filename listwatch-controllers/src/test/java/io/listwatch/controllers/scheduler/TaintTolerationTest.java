package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.nodeInfo;
import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static io.listwatch.controllers.scheduler.Fixtures.taints;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TaintTolerationTest {

  private static final String DEDICATED = "[{\"key\":\"dedicated\",\"value\":\"db\",\"effect\":\"NoSchedule\"}]";
  private static final String NOT_READY = "[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\"},"
      + "{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoExecute\"}]";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no taints", "[]", "[]", List.of()),
        Arguments.of("untolerated NoSchedule", DEDICATED, "[]", List.of("node(s) had untolerated taint {dedicated: db}")),
        Arguments.of("PreferNoSchedule does not filter",
            "[{\"key\":\"k\",\"value\":\"v\",\"effect\":\"PreferNoSchedule\"}]", "[]", List.of()),
        Arguments.of("Equal with the same value", DEDICATED,
            "[{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"db\",\"effect\":\"NoSchedule\"}]", List.of()),
        Arguments.of("empty operator means Equal", DEDICATED, "[{\"key\":\"dedicated\",\"value\":\"db\"}]", List.of()),
        Arguments.of("Equal with another value", DEDICATED, "[{\"key\":\"dedicated\",\"value\":\"web\"}]",
            List.of("node(s) had untolerated taint {dedicated: db}")),
        Arguments.of("Exists on the key", DEDICATED, "[{\"key\":\"dedicated\",\"operator\":\"Exists\"}]", List.of()),
        Arguments.of("Exists without key tolerates all", NOT_READY, "[{\"operator\":\"Exists\"}]", List.of()),
        Arguments.of("another effect does not tolerate", DEDICATED,
            "[{\"key\":\"dedicated\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]",
            List.of("node(s) had untolerated taint {dedicated: db}")),
        Arguments.of("not-ready node: the first untolerated taint", NOT_READY,
            "[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]",
            List.of("node(s) had untolerated taint {node.kubernetes.io/not-ready: }")),
        Arguments.of("not-ready node tolerated for both effects", NOT_READY,
            "[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\"}]", List.of()),
        Arguments.of("unknown operator tolerates nothing", DEDICATED,
            "[{\"key\":\"dedicated\",\"operator\":\"Like\",\"value\":\"db\"}]",
            List.of("node(s) had untolerated taint {dedicated: db}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter_matchesTolerationsByKubesRules(String name, String taints, String tolerations, List<String> reasons) {
    var pod = spec(pod("p"), "tolerations", tolerations);
    assertThat(new TaintToleration().filter(podInfo(pod), nodeInfo(taints(node("n"), taints)))).isEqualTo(reasons);
  }

  @ParameterizedTest(name = "cordoned node, tolerations {0}")
  @MethodSource("cordoned")
  void nodeUnschedulable_keepsPodsOffCordonedNodes_unlessTolerated(String tolerations, boolean fits) {
    var node = spec(node("n"), "unschedulable", "true");
    var reasons = new NodeUnschedulable().filter(podInfo(spec(pod("p"), "tolerations", tolerations)), nodeInfo(node));
    assertThat(reasons).isEqualTo(fits ? List.of() : List.of("node(s) were unschedulable"));
    assertThat(new NodeUnschedulable().filter(podInfo(pod("p")), nodeInfo(node("m")))).isEmpty();
  }

  static Stream<Arguments> cordoned() {
    return Stream.of(
        Arguments.of("[]", false),
        Arguments.of("[{\"key\":\"node.kubernetes.io/unschedulable\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]",
            true),
        Arguments.of("[{\"operator\":\"Exists\"}]", true),
        Arguments.of("[{\"key\":\"node.kubernetes.io/unschedulable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]",
            false));
  }
}

package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.labelled;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static io.listwatch.controllers.scheduler.InterPodAffinityTest.HOST;
import static io.listwatch.controllers.scheduler.InterPodAffinityTest.ZONE;
import static io.listwatch.controllers.scheduler.InterPodAffinityTest.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PodTopologySpread's filter and score, in kube's table style, over the cluster of
 * {@link InterPodAffinityTest}: n1 and n2 in zone a, n3 in zone b, n4 without a zone label.
 * The incoming pod is labelled {@code app=web}.
 */
class PodTopologySpreadTest {

  private static final String OK = "";
  private static final String SKEW = PodTopologySpread.REASON;
  private static final String MISSING = "node(s) didn't match pod topology spread constraints (missing required label)";

  static String constraint(int maxSkew, String key, String when, String app, String extra) {
    return "{\"maxSkew\":" + maxSkew + ",\"topologyKey\":\"" + key + "\",\"whenUnsatisfiable\":\"" + when
        + "\",\"labelSelector\":{\"matchLabels\":{\"app\":\"" + app + "\"}}" + extra + "}";
  }

  static String dns(int maxSkew, String key) {
    return constraint(maxSkew, key, "DoNotSchedule", "web", "");
  }

  private static PodInfo incoming(String constraints, String nodeSelector) {
    ObjectNode pod = labelled("incoming", "app", "web");
    if (constraints != null) {
      spec(pod, "topologySpreadConstraints", constraints);
    }
    if (nodeSelector != null) {
      spec(pod, "nodeSelector", nodeSelector);
    }
    return podInfo(pod);
  }

  static Stream<Arguments> filterCases() {
    return Stream.of(
        Arguments.of("no constraints: nothing to check", null, null, List.of("n1:web"), null),
        Arguments.of("ScheduleAnyway only: nothing to filter",
            "[" + constraint(1, ZONE, "ScheduleAnyway", "web", "") + "]", null, List.of("n1:web"), null),
        Arguments.of("zone, maxSkew 1: not the zone that has one more; a node without the zone is not eligible",
            "[" + dns(1, ZONE) + "]", null, List.of("n1:web"), List.of(SKEW, SKEW, OK, MISSING)),
        Arguments.of("hostname, maxSkew 1: every node but the one that has a pod",
            "[" + dns(1, HOST) + "]", null, List.of("n1:web"), List.of(SKEW, OK, OK, OK)),
        Arguments.of("zones even: any of them", "[" + dns(1, ZONE) + "]", null, List.of("n1:web", "n3:web"),
            List.of(OK, OK, OK, MISSING)),
        Arguments.of("maxSkew 2 allows one more", "[" + dns(2, ZONE) + "]", null, List.of("n1:web"),
            List.of(OK, OK, OK, MISSING)),
        Arguments.of("a pod its own selector does not match adds nothing",
            "[" + constraint(1, ZONE, "DoNotSchedule", "db", "") + "]", null, List.of("n1:db"),
            List.of(OK, OK, OK, MISSING)),
        Arguments.of("pods of other namespaces do not count", "[" + dns(1, ZONE) + "]", null,
            List.of("n1:web@other"), List.of(OK, OK, OK, MISSING)),
        Arguments.of("fewer domains than minDomains: the minimum is 0",
            "[" + constraint(1, ZONE, "DoNotSchedule", "web", ",\"minDomains\":3") + "]", null,
            List.of("n1:web", "n3:web"), List.of(SKEW, SKEW, SKEW, MISSING)),
        Arguments.of("only nodes that pass the pod's nodeSelector make domains",
            "[" + dns(1, ZONE) + "]", "{\"" + ZONE + "\":\"a\"}", List.of("n1:web"), List.of(OK, OK, OK, MISSING)),
        Arguments.of("every constraint must hold", "[" + dns(1, ZONE) + "," + dns(1, HOST) + "]", null,
            List.of("n3:web"), List.of(OK, OK, SKEW, MISSING)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void filter(String name, String constraints, String nodeSelector, List<String> existing, List<String> expected) {
    List<NodeInfo> nodes = cluster(existing.toArray(String[]::new));
    PodInfo pod = incoming(constraints, nodeSelector);
    Optional<FilterPlugin> filter = PodTopologySpread.preFilter(pod, nodes);
    if (expected == null) {
      assertThat(filter).isEmpty();
      return;
    }
    assertThat(filter).isPresent();
    assertThat(nodes.stream().map(n -> String.join(";", filter.get().filter(pod, n))).toList()).isEqualTo(expected);
  }

  static Stream<Arguments> scoreCases() {
    String anyway = "ScheduleAnyway";
    return Stream.of(
        Arguments.of("only DoNotSchedule: no score", "[" + dns(1, ZONE) + "]", List.of("n1:web"), null),
        Arguments.of("hostname: fewer matching pods score higher",
            "[" + constraint(1, HOST, anyway, "web", "") + "]", List.of("n1:web", "n1:web", "n2:web"),
            List.of(0L, 50L, 100L, 100L)),
        Arguments.of("zone: the emptier zone scores highest; a node without the key scores 0",
            "[" + constraint(1, ZONE, anyway, "web", "") + "]", List.of("n1:web"), List.of(0L, 0L, 100L, 0L)),
        Arguments.of("no matching pod anywhere: every eligible node scores 100",
            "[" + constraint(1, ZONE, anyway, "web", "") + "]", List.of("n1:db"), List.of(100L, 100L, 100L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void score(String name, String constraints, List<String> existing, List<Long> expected) {
    List<NodeInfo> nodes = cluster(existing.toArray(String[]::new));
    Optional<long[]> scores = PodTopologySpread.score(incoming(constraints, null), nodes, nodes);
    if (expected == null) {
      assertThat(scores).isEmpty();
      return;
    }
    assertThat(scores).isPresent();
    assertThat(scores.get()).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
  }
}

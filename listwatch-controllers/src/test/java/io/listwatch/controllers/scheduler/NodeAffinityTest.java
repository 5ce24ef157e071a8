package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.labels;
import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.nodeInfo;
import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeAffinityTest {

  private static final Map<String, String> NODE_LABELS = Map.of("disk", "ssd", "zone", "a", "cores", "8");

  private static String required(String terms) {
    return "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
        + terms + "}}}";
  }

  private static String expr(String key, String op, String... values) {
    return "{\"key\":\"" + key + "\",\"operator\":\"" + op + "\",\"values\":["
        + String.join(",", Stream.of(values).map(v -> "\"" + v + "\"").toList()) + "]}";
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no selector, no affinity", null, null, true),
        Arguments.of("nodeSelector matches", "{\"disk\":\"ssd\"}", null, true),
        Arguments.of("nodeSelector value differs", "{\"disk\":\"hdd\"}", null, false),
        Arguments.of("nodeSelector label missing", "{\"gpu\":\"yes\"}", null, false),
        Arguments.of("In matches", null, required("[{\"matchExpressions\":[" + expr("zone", "In", "a", "b") + "]}]"), true),
        Arguments.of("In misses", null, required("[{\"matchExpressions\":[" + expr("zone", "In", "b") + "]}]"), false),
        Arguments.of("NotIn holds", null, required("[{\"matchExpressions\":[" + expr("zone", "NotIn", "b") + "]}]"), true),
        Arguments.of("NotIn on missing label holds", null,
            required("[{\"matchExpressions\":[" + expr("gpu", "NotIn", "x") + "]}]"), true),
        Arguments.of("NotIn fails", null, required("[{\"matchExpressions\":[" + expr("zone", "NotIn", "a") + "]}]"), false),
        Arguments.of("Exists", null, required("[{\"matchExpressions\":[" + expr("disk", "Exists") + "]}]"), true),
        Arguments.of("Exists fails", null, required("[{\"matchExpressions\":[" + expr("gpu", "Exists") + "]}]"), false),
        Arguments.of("DoesNotExist", null, required("[{\"matchExpressions\":[" + expr("gpu", "DoesNotExist") + "]}]"), true),
        Arguments.of("DoesNotExist fails", null,
            required("[{\"matchExpressions\":[" + expr("disk", "DoesNotExist") + "]}]"), false),
        Arguments.of("Gt holds", null, required("[{\"matchExpressions\":[" + expr("cores", "Gt", "4") + "]}]"), true),
        Arguments.of("Gt fails", null, required("[{\"matchExpressions\":[" + expr("cores", "Gt", "8") + "]}]"), false),
        Arguments.of("Lt holds", null, required("[{\"matchExpressions\":[" + expr("cores", "Lt", "16") + "]}]"), true),
        Arguments.of("Lt on non-integer label fails", null,
            required("[{\"matchExpressions\":[" + expr("zone", "Lt", "16") + "]}]"), false),
        Arguments.of("expressions of a term are ANDed", null, required("[{\"matchExpressions\":["
            + expr("zone", "In", "a") + "," + expr("disk", "In", "hdd") + "]}]"), false),
        Arguments.of("terms are ORed", null, required("[{\"matchExpressions\":[" + expr("zone", "In", "b")
            + "]},{\"matchExpressions\":[" + expr("disk", "In", "ssd") + "]}]"), true),
        Arguments.of("an empty term matches nothing", null, required("[{}]"), false),
        Arguments.of("matchFields metadata.name In", null,
            required("[{\"matchFields\":[" + expr("metadata.name", "In", "n1") + "]}]"), true),
        Arguments.of("matchFields metadata.name NotIn", null,
            required("[{\"matchFields\":[" + expr("metadata.name", "NotIn", "n1") + "]}]"), false),
        Arguments.of("matchFields on another field matches nothing", null,
            required("[{\"matchFields\":[" + expr("metadata.uid", "In", "n1") + "]}]"), false),
        Arguments.of("selector and affinity must both hold", "{\"disk\":\"hdd\"}",
            required("[{\"matchExpressions\":[" + expr("zone", "In", "a") + "]}]"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter_nodeSelectorAndRequiredAffinity(String name, String nodeSelector, String affinity, boolean fits) {
    var pod = pod("p");
    if (nodeSelector != null) {
      spec(pod, "nodeSelector", nodeSelector);
    }
    if (affinity != null) {
      spec(pod, "affinity", affinity);
    }
    var reasons = new NodeAffinity().filter(podInfo(pod), nodeInfo(labels(node("n1"), NODE_LABELS)));
    if (fits) {
      assertThat(reasons).isEmpty();
    } else {
      assertThat(reasons).containsExactly("node(s) didn't match Pod's node affinity/selector");
    }
  }

  private static String preferred(String... weightedTerms) {
    return "{\"nodeAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":["
        + String.join(",", weightedTerms) + "]}}";
  }

  private static String weighted(int weight, String expression) {
    return "{\"weight\":" + weight + ",\"preference\":{\"matchExpressions\":[" + expression + "]}}";
  }

  static Stream<Arguments> scoreCases() {
    return Stream.of(
        Arguments.of("no preferred terms: no score", null, null),
        Arguments.of("the matching node scores 100, the others 0", preferred(weighted(5, expr("zone", "In", "a"))),
            List.of(100L, 0L, 0L)),
        Arguments.of("weights add up and are scaled to the best node",
            preferred(weighted(20, expr("zone", "In", "a", "b")), weighted(60, expr("disk", "In", "ssd"))),
            List.of(25L, 100L, 0L)),
        Arguments.of("a term no node matches leaves every node at 0", preferred(weighted(5, expr("gpu", "Exists"))),
            List.of(0L, 0L, 0L)),
        Arguments.of("a weight of 0 counts nothing", preferred(weighted(0, expr("zone", "In", "a"))),
            List.of(0L, 0L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void score_preferredNodeAffinity(String name, String affinity, List<Long> expected) {
    var pod = pod("p");
    if (affinity != null) {
      spec(pod, "affinity", affinity);
    }
    List<NodeInfo> nodes = List.of(nodeInfo(labels(node("a"), Map.of("zone", "a"))),
        nodeInfo(labels(node("b"), Map.of("zone", "b", "disk", "ssd"))), nodeInfo(labels(node("c"), Map.of("zone", "c"))));
    var scores = NodeAffinity.score(podInfo(pod), nodes);
    if (expected == null) {
      assertThat(scores).isEmpty();
    } else {
      assertThat(scores.orElseThrow()).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
    }
  }
}

package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.labelled;
import static io.listwatch.controllers.scheduler.Fixtures.labels;
import static io.listwatch.controllers.scheduler.Fixtures.namespace;
import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.nodeInfo;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * InterPodAffinity's filter and score, in kube's table style, over four nodes: n1 and n2 in
 * zone a, n3 in zone b, n4 without a zone label. The existing pods are written
 * {@code "n1:web"} (a pod labelled {@code app=web} on n1), optionally with a namespace
 * ({@code "n1:web@other"}) or an affinity ({@code "n1:web#<affinity json>"}).
 */
class InterPodAffinityTest {

  static final String HOST = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";
  private static final String OK = "";
  private static final String AFF = InterPodAffinity.AFFINITY;
  private static final String ANTI = InterPodAffinity.ANTI_AFFINITY;
  private static final String EXISTING = InterPodAffinity.EXISTING_ANTI_AFFINITY;

  /** A pod affinity term selecting {@code app=<app>} over {@code key}, with extra fields. */
  static String term(String app, String key, String extra) {
    return "{\"labelSelector\":{\"matchLabels\":{\"app\":\"" + app + "\"}},\"topologyKey\":\"" + key + "\""
        + (extra.isEmpty() ? "" : "," + extra) + "}";
  }

  static String term(String app, String key) {
    return term(app, key, "");
  }

  static String required(String kind, String... terms) {
    return "{\"" + kind + "\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[" + String.join(",", terms) + "]}}";
  }

  static String preferred(String kind, int weight, String term) {
    return "{\"" + kind + "\":{\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":" + weight
        + ",\"podAffinityTerm\":" + term + "}]}}";
  }

  static List<NodeInfo> cluster(String... pods) {
    List<ObjectNode> nodes = List.of(labels(node("n1"), Map.of(HOST, "n1", ZONE, "a")),
        labels(node("n2"), Map.of(HOST, "n2", ZONE, "a")), labels(node("n3"), Map.of(HOST, "n3", ZONE, "b")),
        labels(node("n4"), Map.of(HOST, "n4")));
    List<NodeInfo> infos = new ArrayList<>();
    for (ObjectNode n : nodes) {
      String name = n.at("/metadata/name").asText();
      List<PodInfo> on = new ArrayList<>();
      int i = 0;
      for (String p : pods) {
        String[] at = p.split(":", 2);
        if (at[0].equals(name)) {
          on.add(podInfo(existing(name + "-" + i++, at[1])));
        }
      }
      infos.add(nodeInfo(n, on.toArray(PodInfo[]::new)));
    }
    return infos;
  }

  /** {@code app[@namespace][#affinity]}. */
  private static ObjectNode existing(String name, String description) {
    String[] withAffinity = description.split("#", 2);
    String[] withNs = withAffinity[0].split("@", 2);
    ObjectNode pod = labelled(name, "app", withNs[0]);
    if (withNs.length == 2) {
      namespace(pod, withNs[1]);
    }
    if (withAffinity.length == 2) {
      spec(pod, "affinity", withAffinity[1]);
    }
    return pod;
  }

  private static PodInfo incoming(String app, String affinity) {
    ObjectNode pod = labelled("incoming", "app", app);
    if (affinity != null) {
      spec(pod, "affinity", affinity);
    }
    return podInfo(pod);
  }

  private static final NamespaceLabels TEAM_X = ns -> ns.equals("other") ? Map.of("team", "x") : Map.of();

  static Stream<Arguments> filterCases() {
    return Stream.of(
        Arguments.of("no terms anywhere: nothing to check", "web", null, List.of("n1:web", "n3:db"), null),
        Arguments.of("required affinity by hostname: only the node of the matching pod", "web",
            required("podAffinity", term("db", HOST)), List.of("n1:db"), List.of(OK, AFF, AFF, AFF)),
        Arguments.of("required affinity by zone: every node of the zone; a node without the key fails", "web",
            required("podAffinity", term("db", ZONE)), List.of("n1:db"), List.of(OK, OK, AFF, AFF)),
        Arguments.of("required affinity with no matching pod anywhere fails everywhere", "web",
            required("podAffinity", term("db", HOST)), List.of("n1:web"), List.of(AFF, AFF, AFF, AFF)),
        Arguments.of("the first pod of a group with affinity to itself may go to any node with the key", "web",
            required("podAffinity", term("web", ZONE)), List.of("n1:db"), List.of(OK, OK, OK, AFF)),
        Arguments.of("affinity terms must all be matched by the same pod", "web",
            required("podAffinity", term("db", HOST), term("cache", HOST)), List.of("n1:db", "n1:cache"),
            List.of(AFF, AFF, AFF, AFF)),
        Arguments.of("required affinity ignores pods of other namespaces by default", "web",
            required("podAffinity", term("db", HOST)), List.of("n1:db@other"), List.of(AFF, AFF, AFF, AFF)),
        Arguments.of("required anti-affinity by hostname: not next to a matching pod", "web",
            required("podAntiAffinity", term("web", HOST)), List.of("n1:web"), List.of(ANTI, OK, OK, OK)),
        Arguments.of("required anti-affinity by zone: not in its zone; a node without the key passes", "web",
            required("podAntiAffinity", term("web", ZONE)), List.of("n1:web"), List.of(ANTI, ANTI, OK, OK)),
        Arguments.of("anti-affinity is about the pod's own namespace by default", "web",
            required("podAntiAffinity", term("web", HOST)), List.of("n1:web@other"), List.of(OK, OK, OK, OK)),
        Arguments.of("anti-affinity over the namespaces listed", "web",
            required("podAntiAffinity", term("web", HOST, "\"namespaces\":[\"other\"]")), List.of("n1:web@other",
                "n2:web"), List.of(ANTI, OK, OK, OK)),
        Arguments.of("an empty namespaceSelector means every namespace", "web",
            required("podAntiAffinity", term("web", HOST, "\"namespaceSelector\":{}")), List.of("n1:web@other",
                "n2:web"), List.of(ANTI, ANTI, OK, OK)),
        Arguments.of("a namespaceSelector matches the namespace's labels", "web",
            required("podAntiAffinity", term("web", HOST, "\"namespaceSelector\":{\"matchLabels\":{\"team\":\"x\"}}")),
            List.of("n1:web@other", "n2:web@third"), List.of(ANTI, OK, OK, OK)),
        Arguments.of("a term without labelSelector matches no pod", "web",
            required("podAntiAffinity", "{\"topologyKey\":\"" + HOST + "\"}"), List.of("n1:web"),
            List.of(OK, OK, OK, OK)),
        Arguments.of("an existing pod's required anti-affinity keeps the incoming pod off its node", "web", null,
            List.of("n1:db#" + required("podAntiAffinity", term("web", HOST))), List.of(EXISTING, OK, OK, OK)),
        Arguments.of("an existing pod's required anti-affinity by zone keeps it off the zone", "web", null,
            List.of("n1:db#" + required("podAntiAffinity", term("web", ZONE))), List.of(EXISTING, EXISTING, OK, OK)),
        Arguments.of("an existing pod's anti-affinity that does not select the incoming pod is no obstacle", "web",
            null, List.of("n1:db#" + required("podAntiAffinity", term("cache", HOST))), null),
        Arguments.of("affinity is checked before anti-affinity", "web",
            "{\"podAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[" + term("db", HOST) + "]},"
                + "\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[" + term("web", ZONE)
                + "]}}", List.of("n1:db", "n2:web"), List.of(ANTI, AFF, AFF, AFF)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void filter(String name, String app, String affinity, List<String> existing, List<String> expected) {
    List<NodeInfo> nodes = cluster(existing.toArray(String[]::new));
    PodInfo pod = incoming(app, affinity);
    Optional<FilterPlugin> filter = InterPodAffinity.preFilter(pod, nodes, TEAM_X);
    if (expected == null) {
      assertThat(filter).isEmpty();
      return;
    }
    assertThat(filter).isPresent();
    List<String> got = nodes.stream().map(n -> String.join(";", filter.get().filter(pod, n))).toList();
    assertThat(got).isEqualTo(expected);
  }

  static Stream<Arguments> scoreCases() {
    return Stream.of(
        Arguments.of("no terms anywhere: no score", "web", null, List.of("n1:web"), null),
        Arguments.of("preferred affinity by hostname favours the node of the matching pod", "web",
            preferred("podAffinity", 10, term("db", HOST)), List.of("n2:db"), List.of(0L, 100L, 0L, 0L)),
        Arguments.of("preferred affinity by zone favours the whole zone, weighted by matching pods", "web",
            preferred("podAffinity", 10, term("db", ZONE)), List.of("n1:db", "n3:db", "n3:db"),
            List.of(50L, 50L, 100L, 0L)),
        Arguments.of("preferred anti-affinity by zone: the zone of the matching pod scores lowest", "web",
            preferred("podAntiAffinity", 10, term("web", ZONE)), List.of("n1:web"), List.of(0L, 0L, 100L, 100L)),
        Arguments.of("an existing pod's preferred affinity for the incoming pod draws it", "web", null,
            List.of("n3:db#" + preferred("podAffinity", 5, term("web", HOST))), List.of(0L, 0L, 100L, 0L)),
        Arguments.of("an existing pod's preferred anti-affinity for the incoming pod repels it", "web", null,
            List.of("n3:db#" + preferred("podAntiAffinity", 5, term("web", HOST))), List.of(100L, 100L, 0L, 100L)),
        Arguments.of("an existing pod's required affinity for the incoming pod counts with weight 1", "web", null,
            List.of("n2:db#" + required("podAffinity", term("web", HOST))), List.of(0L, 100L, 0L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void score(String name, String app, String affinity, List<String> existing, List<Long> expected) {
    List<NodeInfo> nodes = cluster(existing.toArray(String[]::new));
    Optional<long[]> scores = InterPodAffinity.score(incoming(app, affinity), nodes, nodes, NamespaceLabels.NONE);
    if (expected == null) {
      assertThat(scores).isEmpty();
      return;
    }
    assertThat(scores).isPresent();
    assertThat(scores.get()).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
  }
}

package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.nodeInfo;
import static io.listwatch.controllers.scheduler.Fixtures.ownedBy;
import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NodeScorerTest {

  @Test
  void select_prefersTheLeastAllocatedNode() {
    var busy = nodeInfo(node("busy"), podInfo(pod("x", "3", "6Gi")));
    var idle = nodeInfo(node("idle"));
    assertThat(new NodeScorer(new Random(1)).select(podInfo(pod("p", "100m", "128Mi")), List.of(busy, idle), List.of(busy, idle), NamespaceLabels.NONE).name())
        .isEqualTo("idle");
  }

  @Test
  void select_prefersTheNodeWithFewerPodsOfTheSameOwner_overFreeResources() {
    // "a" is emptier but already runs a pod of the owner; "b" runs a bigger pod of someone else.
    var a = nodeInfo(node("a"), podInfo(ownedBy(pod("mine", "100m", "100Mi"), "rs")));
    var b = nodeInfo(node("b"), podInfo(pod("other", "500m", "500Mi")));
    assertThat(new NodeScorer(new Random(1)).select(podInfo(ownedBy(pod("p"), "rs")), List.of(a, b), List.of(a, b), NamespaceLabels.NONE).name())
        .isEqualTo("b");
  }

  @Test
  void select_breaksTiesAtRandom_overEveryTiedNode() {
    List<NodeInfo> same = List.of(nodeInfo(node("n1")), nodeInfo(node("n2")), nodeInfo(node("n3")));
    NodeScorer scorer = new NodeScorer(new Random(42));
    Map<String, Integer> picks = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      picks.merge(scorer.select(podInfo(pod("p")), same, same, NamespaceLabels.NONE).name(), 1, Integer::sum);
    }
    assertThat(picks).containsOnlyKeys("n1", "n2", "n3");
    assertThat(picks.values()).allSatisfy(n -> assertThat(n).isGreaterThan(50));
  }

  @Test
  void score_balancedAllocation_favoursEvenUseOfCpuAndMemory() {
    // Same free share on average, but "skewed" would be all CPU and little memory.
    var even = nodeInfo(node("even", "4", "4Gi", 110));
    var skewed = nodeInfo(node("skewed", "4", "4Gi", 110));
    var balancedPod = podInfo(pod("p", "2", "2Gi"));
    var skewedPod = podInfo(pod("q", "4", "1Mi"));
    assertThat(NodeScorer.resourceScore(balancedPod, even)).isGreaterThan(NodeScorer.resourceScore(skewedPod, skewed));
  }
}

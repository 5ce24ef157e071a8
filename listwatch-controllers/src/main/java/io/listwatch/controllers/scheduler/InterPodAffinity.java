package io.listwatch.controllers.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pod affinity and anti-affinity ({@code spec.affinity.podAffinity}/{@code podAntiAffinity}),
 * as kube's plugin of the same name.
 *
 * <p><b>Filter.</b> {@link #preFilter} counts once per scheduling cycle, over every node, the
 * pods in each topology domain ({@link TopologyPair}) that match the incoming pod's required
 * terms, and the domains where an existing pod's required anti-affinity term matches the
 * incoming pod. A node is then rejected, in kube's order and words, when:
 * <ol>
 *   <li>it lacks the topology key of a required affinity term, or a term's domain holds no
 *       pod matching all the terms ({@value #AFFINITY}). Exception, so that the first pod of a
 *       group can start: when no pod anywhere matches all the terms and the pod matches them
 *       itself, any node having the keys passes;</li>
 *   <li>a required anti-affinity term's domain holds a matching pod ({@value #ANTI_AFFINITY});</li>
 *   <li>the node is in a domain where an existing pod's required anti-affinity term matches the
 *       incoming pod ({@value #EXISTING_ANTI_AFFINITY}).</li>
 * </ol>
 * Pods without terms only pay for the existing pods' anti-affinity, read from each node's
 * {@link NodeInfo#podsWithRequiredAntiAffinity}, and skip the filter when there is none.
 *
 * <p><b>Score.</b> {@link #score}: a domain gains the weight of each preferred affinity term of
 * the incoming pod that a pod there matches, loses it for preferred anti-affinity; existing
 * pods' preferred terms count the same way when they match the incoming pod, and their required
 * affinity terms count with kube's {@code hardPodAffinityWeight} of 1. A node's score is the sum
 * over its domains, normalized to 0-100 between the lowest and the highest. Stateless.
 */
final class InterPodAffinity {

  static final String AFFINITY = "node(s) didn't match pod affinity rules";
  static final String ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
  static final String EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
  static final int HARD_POD_AFFINITY_WEIGHT = 1;

  private InterPodAffinity() {
  }

  /**
   * kube's PreFilter: the filter for {@code pod} in this cycle over {@code nodes} (all the
   * nodes), or empty when neither the pod nor any existing pod has a required term to check.
   */
  static Optional<FilterPlugin> preFilter(PodInfo pod, List<NodeInfo> nodes, NamespaceLabels namespaces) {
    PodAffinity affinity = pod.affinity();
    Map<TopologyPair, Integer> existingAnti = new HashMap<>();
    for (NodeInfo node : nodes) {
      for (PodInfo existing : node.podsWithRequiredAntiAffinity()) {
        for (AffinityTerm term : existing.affinity().requiredAnti()) {
          TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
          if (pair != null && term.matches(pod, namespaces)) {
            existingAnti.merge(pair, 1, Integer::sum);
          }
        }
      }
    }
    if (affinity.required().isEmpty() && affinity.requiredAnti().isEmpty() && existingAnti.isEmpty()) {
      return Optional.empty();
    }
    Map<TopologyPair, Integer> affinityCounts = new HashMap<>();
    Map<TopologyPair, Integer> antiCounts = new HashMap<>();
    if (!affinity.required().isEmpty() || !affinity.requiredAnti().isEmpty()) {
      for (NodeInfo node : nodes) {
        for (PodGroup existing : node.podGroups()) {
          if (!affinity.required().isEmpty() && matchesAll(affinity.required(), existing, namespaces)) {
            for (AffinityTerm term : affinity.required()) {
              TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
              if (pair != null) {
                affinityCounts.merge(pair, existing.count(), Integer::sum);
              }
            }
          }
          for (AffinityTerm term : affinity.requiredAnti()) {
            if (term.matches(existing, namespaces)) {
              TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
              if (pair != null) {
                antiCounts.merge(pair, existing.count(), Integer::sum);
              }
            }
          }
        }
      }
    }
    boolean selfMatch = true;
    for (AffinityTerm term : affinity.required()) {
      selfMatch &= term.matches(pod, namespaces);
    }
    return Optional.of(new Filter(affinity, affinityCounts, antiCounts, existingAnti, selfMatch));
  }

  private static boolean matchesAll(List<AffinityTerm> terms, PodGroup pods, NamespaceLabels namespaces) {
    for (AffinityTerm term : terms) {
      if (!term.matches(pods, namespaces)) {
        return false;
      }
    }
    return true;
  }

  /** One cycle's filter: the counts of {@link #preFilter}. Immutable. */
  private record Filter(PodAffinity affinity, Map<TopologyPair, Integer> affinityCounts,
      Map<TopologyPair, Integer> antiCounts, Map<TopologyPair, Integer> existingAnti, boolean selfMatch)
      implements FilterPlugin {

    @Override
    public String name() {
      return "InterPodAffinity";
    }

    @Override
    public List<String> filter(PodInfo pod, NodeInfo node) {
      if (!satisfiesAffinity(node)) {
        return List.of(AFFINITY);
      }
      for (AffinityTerm term : affinity.requiredAnti()) {
        TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
        if (pair != null && antiCounts.getOrDefault(pair, 0) > 0) {
          return List.of(ANTI_AFFINITY);
        }
      }
      if (!existingAnti.isEmpty()) {
        for (Map.Entry<String, String> label : node.labels().entrySet()) {
          if (existingAnti.containsKey(new TopologyPair(label.getKey(), label.getValue()))) {
            return List.of(EXISTING_ANTI_AFFINITY);
          }
        }
      }
      return List.of();
    }

    private boolean satisfiesAffinity(NodeInfo node) {
      boolean podsExist = true;
      for (AffinityTerm term : affinity.required()) {
        TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
        if (pair == null) {
          return false; // every topology key must be a label of the node
        }
        if (affinityCounts.getOrDefault(pair, 0) <= 0) {
          podsExist = false;
        }
      }
      // The first pod of a group with affinity to itself: nothing matches yet, it may go anywhere.
      return podsExist || (affinityCounts.isEmpty() && selfMatch);
    }
  }

  /**
   * The normalized score (0-100) of each of {@code feasible}, counting the pods on
   * {@code nodes} (all the nodes); empty when no term applies, so every node would score the
   * same.
   */
  static Optional<long[]> score(PodInfo pod, List<NodeInfo> feasible, List<NodeInfo> nodes,
      NamespaceLabels namespaces) {
    PodAffinity affinity = pod.affinity();
    boolean own = !affinity.preferred().isEmpty() || !affinity.preferredAnti().isEmpty();
    Map<TopologyPair, Long> byDomain = new HashMap<>();
    for (NodeInfo node : nodes) {
      if (node.labels().isEmpty()) {
        continue;
      }
      if (own) {
        for (PodGroup existing : node.podGroups()) {
          addOwn(byDomain, affinity.preferred(), existing, namespaces, node, 1);
          addOwn(byDomain, affinity.preferredAnti(), existing, namespaces, node, -1);
        }
      }
      for (PodInfo existing : node.podsWithAffinity()) {
        PodAffinity theirs = existing.affinity();
        add(byDomain, theirs.required(), pod, namespaces, node, 1, true);
        add(byDomain, theirs.preferred(), pod, namespaces, node, 1, false);
        add(byDomain, theirs.preferredAnti(), pod, namespaces, node, -1, false);
      }
    }
    if (byDomain.isEmpty()) {
      return Optional.empty();
    }
    long[] scores = new long[feasible.size()];
    for (int i = 0; i < scores.length; i++) {
      for (Map.Entry<String, String> label : feasible.get(i).labels().entrySet()) {
        scores[i] += byDomain.getOrDefault(new TopologyPair(label.getKey(), label.getValue()), 0L);
      }
    }
    return Optional.of(normalizeMinMax(scores));
  }

  /** The incoming pod's preferred {@code terms} that select the pods of {@code existing}. */
  private static void addOwn(Map<TopologyPair, Long> byDomain, List<AffinityTerm> terms, PodGroup existing,
      NamespaceLabels namespaces, NodeInfo node, int sign) {
    for (AffinityTerm term : terms) {
      if (term.weight() != 0 && term.matches(existing, namespaces)) {
        TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
        if (pair != null) {
          byDomain.merge(pair, (long) sign * term.weight() * existing.count(), Long::sum);
        }
      }
    }
  }

  /** An existing pod's {@code terms} that select the incoming pod {@code target}. */
  private static void add(Map<TopologyPair, Long> byDomain, List<AffinityTerm> terms, PodInfo target,
      NamespaceLabels namespaces, NodeInfo node, int sign, boolean hard) {
    for (AffinityTerm term : terms) {
      int weight = hard ? HARD_POD_AFFINITY_WEIGHT : term.weight();
      if (weight == 0) {
        continue;
      }
      TopologyPair pair = TopologyPair.of(term.topologyKey(), node.labels());
      if (pair != null && term.matches(target, namespaces)) {
        byDomain.merge(pair, (long) sign * weight, Long::sum);
      }
    }
  }

  /** kube's normalization of this plugin: the lowest score becomes 0, the highest 100. */
  static long[] normalizeMinMax(long[] scores) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long s : scores) {
      min = Math.min(min, s);
      max = Math.max(max, s);
    }
    long[] out = new long[scores.length];
    for (int i = 0; i < scores.length; i++) {
      out[i] = max > min ? (long) (NodeScorer.MAX_SCORE * ((double) (scores[i] - min) / (max - min))) : 0;
    }
    return out;
  }
}

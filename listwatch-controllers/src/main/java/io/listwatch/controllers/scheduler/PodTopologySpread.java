package io.listwatch.controllers.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code spec.topologySpreadConstraints}, as kube's plugin of the same name. A constraint
 * counts, per domain (the value of its {@code topologyKey} on a node), the pods of the
 * incoming pod's namespace that match its {@code labelSelector} and are not being deleted.
 * Only nodes that pass the pod's {@code nodeSelector} and required node affinity and carry
 * every constraint's key make domains (kube's default {@code nodeAffinityPolicy: Honor},
 * {@code nodeTaintsPolicy: Ignore}).
 *
 * <p><b>Filter</b> ({@code whenUnsatisfiable: DoNotSchedule}). A node without the key is
 * rejected ({@value #MISSING_LABEL}). Otherwise the pod fits when
 * {@code count(node's domain) + (1 if the pod matches the selector itself) - min(count over
 * domains) <= maxSkew}, where the minimum is 0 while there are fewer domains than
 * {@code minDomains}; else {@value #REASON}.
 *
 * <p><b>Score</b> ({@code ScheduleAnyway}). As kube: each constraint adds
 * {@code count × log(domains + 2) + maxSkew - 1} for the node's domain; the fewest pods score
 * 100 after normalization, nodes lacking a key score 0. A pod with no constraints of its own
 * gets kube's default spreading in a simplified form: fewer pods of its controller owner on a
 * node score higher. Stateless.
 */
final class PodTopologySpread {

  static final String REASON = "node(s) didn't match pod topology spread constraints";
  static final String MISSING_LABEL = REASON + " (missing required label)";

  private PodTopologySpread() {
  }

  /** kube's PreFilter: the filter of the pod's DoNotSchedule constraints over {@code nodes} (all), if any. */
  static Optional<FilterPlugin> preFilter(PodInfo pod, List<NodeInfo> nodes) {
    List<TopologySpreadConstraint> constraints = pod.spreadConstraints().stream()
        .filter(TopologySpreadConstraint::doNotSchedule).toList();
    if (constraints.isEmpty()) {
      return Optional.empty();
    }
    List<Map<String, Integer>> counts = countByDomain(pod, constraints, nodes);
    long[] min = new long[constraints.size()];
    for (int i = 0; i < min.length; i++) {
      Map<String, Integer> byDomain = counts.get(i);
      min[i] = byDomain.size() < constraints.get(i).minDomains() ? 0
          : byDomain.values().stream().mapToLong(Integer::longValue).min().orElse(Integer.MAX_VALUE);
    }
    return Optional.of(new Filter(constraints, counts, min));
  }

  /**
   * For each constraint, the matching pods per domain over the eligible nodes (every
   * eligible node's domain is present, possibly with 0).
   */
  private static List<Map<String, Integer>> countByDomain(PodInfo pod, List<TopologySpreadConstraint> constraints,
      List<NodeInfo> nodes) {
    List<Map<String, Integer>> counts = new ArrayList<>();
    constraints.forEach(c -> counts.add(new HashMap<>()));
    NodeAffinity nodeAffinity = new NodeAffinity();
    for (NodeInfo node : nodes) {
      if (!hasAllKeys(node, constraints) || !nodeAffinity.filter(pod, node).isEmpty()) {
        continue;
      }
      for (int i = 0; i < constraints.size(); i++) {
        TopologySpreadConstraint c = constraints.get(i);
        int matching = 0;
        for (PodGroup g : node.podGroups()) {
          if (c.counts(g, pod.object().namespace())) {
            matching += g.count();
          }
        }
        counts.get(i).merge(node.labels().get(c.topologyKey()), matching, Integer::sum);
      }
    }
    return counts;
  }

  private static boolean hasAllKeys(NodeInfo node, List<TopologySpreadConstraint> constraints) {
    for (TopologySpreadConstraint c : constraints) {
      if (!node.labels().containsKey(c.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  /**
   * One cycle's filter: the counts per constraint and domain, and each constraint's minimum
   * (0 while there are fewer domains than {@code minDomains}). Immutable.
   */
  private record Filter(List<TopologySpreadConstraint> constraints, List<Map<String, Integer>> counts, long[] min)
      implements FilterPlugin {

    @Override
    public String name() {
      return "PodTopologySpread";
    }

    @Override
    public List<String> filter(PodInfo pod, NodeInfo node) {
      for (int i = 0; i < constraints.size(); i++) {
        TopologySpreadConstraint c = constraints.get(i);
        String domain = node.labels().get(c.topologyKey());
        if (domain == null) {
          return List.of(MISSING_LABEL);
        }
        int self = c.selector() != null && c.selector().matches(pod.labels()) ? 1 : 0;
        long skew = counts.get(i).getOrDefault(domain, 0) + self - min[i];
        if (skew > c.maxSkew()) {
          return List.of(REASON);
        }
      }
      return List.of();
    }
  }

  /**
   * The normalized score (0-100) of each of {@code feasible}, counting pods on {@code nodes}
   * (all); empty when the pod has constraints but none is ScheduleAnyway.
   */
  static Optional<long[]> score(PodInfo pod, List<NodeInfo> feasible, List<NodeInfo> nodes) {
    if (pod.spreadConstraints().isEmpty()) {
      return Optional.of(ownerSpread(pod, feasible));
    }
    List<TopologySpreadConstraint> constraints = pod.spreadConstraints().stream()
        .filter(c -> !c.doNotSchedule()).toList();
    if (constraints.isEmpty()) {
      return Optional.empty();
    }
    List<Set<String>> domains = new ArrayList<>();
    constraints.forEach(c -> domains.add(new HashSet<>()));
    for (NodeInfo node : feasible) {
      if (hasAllKeys(node, constraints)) {
        for (int i = 0; i < constraints.size(); i++) {
          domains.get(i).add(node.labels().get(constraints.get(i).topologyKey()));
        }
      }
    }
    List<Map<String, Integer>> counts = countByDomain(pod, constraints, nodes);
    long[] raw = new long[feasible.size()];
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int n = 0; n < raw.length; n++) {
      NodeInfo node = feasible.get(n);
      if (!hasAllKeys(node, constraints)) {
        raw[n] = -1; // ignored: scores 0
        continue;
      }
      double s = 0;
      for (int i = 0; i < constraints.size(); i++) {
        TopologySpreadConstraint c = constraints.get(i);
        int count = counts.get(i).getOrDefault(node.labels().get(c.topologyKey()), 0);
        s += count * Math.log(domains.get(i).size() + 2) + (c.maxSkew() - 1);
      }
      raw[n] = Math.round(s);
      min = Math.min(min, raw[n]);
      max = Math.max(max, raw[n]);
    }
    long[] out = new long[raw.length];
    for (int n = 0; n < raw.length; n++) {
      if (raw[n] < 0) {
        out[n] = 0;
      } else if (max == 0) {
        out[n] = NodeScorer.MAX_SCORE;
      } else {
        out[n] = NodeScorer.MAX_SCORE * (max + min - raw[n]) / max;
      }
    }
    return Optional.of(out);
  }

  /** The default spreading: fewer pods of the pod's controller owner score higher (100 with none). */
  private static long[] ownerSpread(PodInfo pod, List<NodeInfo> feasible) {
    int maxOwned = 0;
    for (NodeInfo n : feasible) {
      maxOwned = Math.max(maxOwned, n.podsOwnedBy(pod.ownerUid()));
    }
    long[] out = new long[feasible.size()];
    for (int n = 0; n < out.length; n++) {
      out[n] = maxOwned == 0 ? NodeScorer.MAX_SCORE
          : (long) NodeScorer.MAX_SCORE * (maxOwned - feasible.get(n).podsOwnedBy(pod.ownerUid())) / maxOwned;
    }
    return out;
  }
}

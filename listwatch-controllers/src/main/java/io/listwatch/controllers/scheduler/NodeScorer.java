package io.listwatch.controllers.scheduler;

import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Picks the node a pod goes to among those that passed the filters. Each node gets, with
 * kube's default weights, the sum of these scores (each 0 to 100):
 * <ul>
 *   <li>least allocated (kube's {@code NodeResourcesFit} default strategy, weight 1): the share
 *       of CPU and memory left free once the pod is there, averaged;</li>
 *   <li>balanced allocation (kube's {@code NodeResourcesBalancedAllocation}, weight 1): 100
 *       when CPU and memory would be used in the same proportion, less as they diverge;</li>
 *   <li>preferred node affinity ({@link NodeAffinity#score}, weight 2);</li>
 *   <li>preferred inter-pod affinity and anti-affinity ({@link InterPodAffinity#score},
 *       weight 2);</li>
 *   <li>topology spread ({@link PodTopologySpread#score}, weight 2): the pod's ScheduleAnyway
 *       constraints, or without constraints fewer pods of its controller owner.</li>
 * </ul>
 * Requests count as kube's non-zero requests, so pods without requests spread too. Among the
 * nodes with the highest total, one is picked at random, each with the same chance (kube's
 * reservoir sampling). Thread-safe if {@code random} is; the scheduler calls it from its one
 * scheduling thread.
 */
final class NodeScorer {

  static final int MAX_SCORE = 100;
  static final int NODE_AFFINITY_WEIGHT = 2;
  static final int INTER_POD_AFFINITY_WEIGHT = 2;
  static final int SPREAD_WEIGHT = 2;

  private final RandomGenerator random;

  NodeScorer(RandomGenerator random) {
    this.random = random;
  }

  /** The chosen node among {@code feasible} (not empty) for a cluster of {@code all} nodes. */
  NodeInfo select(PodInfo pod, List<NodeInfo> feasible, List<NodeInfo> all, NamespaceLabels namespaces) {
    long[] total = new long[feasible.size()];
    for (int i = 0; i < total.length; i++) {
      total[i] = resourceScore(pod, feasible.get(i));
    }
    add(total, NODE_AFFINITY_WEIGHT, NodeAffinity.score(pod, feasible));
    add(total, INTER_POD_AFFINITY_WEIGHT, InterPodAffinity.score(pod, feasible, all, namespaces));
    add(total, SPREAD_WEIGHT, PodTopologySpread.score(pod, feasible, all));
    NodeInfo best = null;
    long bestScore = Long.MIN_VALUE;
    int ties = 0;
    for (int i = 0; i < total.length; i++) {
      long score = total[i];
      if (score > bestScore) {
        best = feasible.get(i);
        bestScore = score;
        ties = 1;
      } else if (score == bestScore) {
        ties++;
        if (random.nextInt(ties) == 0) {
          best = feasible.get(i);
        }
      }
    }
    return best;
  }

  private static void add(long[] total, int weight, Optional<long[]> scores) {
    scores.ifPresent(s -> {
      for (int i = 0; i < total.length; i++) {
        total[i] += weight * s[i];
      }
    });
  }

  /** Least allocated plus balanced allocation of {@code node} once {@code pod} is on it. */
  static long resourceScore(PodInfo pod, NodeInfo node) {
    Resources used = node.nonZeroRequested().plus(pod.nonZeroRequests());
    long leastAllocated = (free(used.milliCpu(), node.allocatable().milliCpu())
        + free(used.memory(), node.allocatable().memory())) / 2;
    double cpuFraction = fraction(used.milliCpu(), node.allocatable().milliCpu());
    double memoryFraction = fraction(used.memory(), node.allocatable().memory());
    long balanced = (long) ((1 - Math.abs(cpuFraction - memoryFraction) / 2) * MAX_SCORE);
    return leastAllocated + balanced;
  }

  private static long free(long requested, long capacity) {
    if (capacity <= 0 || requested > capacity) {
      return 0;
    }
    return (capacity - requested) * MAX_SCORE / capacity;
  }

  private static double fraction(long requested, long capacity) {
    return capacity <= 0 ? 1 : Math.min(1.0, (double) requested / capacity);
  }
}

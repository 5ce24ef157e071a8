package io.listwatch.controllers.scheduler;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Picks the node a pod goes to among those that passed the filters. Each node scores 0 to
 * 100 on each of:
 * <ul>
 *   <li>least allocated (kube's {@code NodeResourcesFit} default strategy): the share of CPU
 *       and memory left free once the pod is there, averaged;</li>
 *   <li>balanced allocation (kube's {@code NodeResourcesBalancedAllocation}): 100 when CPU and
 *       memory would be used in the same proportion, less as they diverge;</li>
 *   <li>spread (weight 2, as kube's default {@code PodTopologySpread}): fewer pods of the
 *       pod's controller owner score higher.</li>
 * </ul>
 * Requests count as kube's non-zero requests, so pods without requests spread too. Among the
 * nodes with the highest total, one is picked at random, each with the same chance (kube's
 * reservoir sampling). Thread-safe if {@code random} is; the scheduler calls it from its one
 * scheduling thread.
 */
final class NodeScorer {

  static final int MAX_SCORE = 100;
  static final int SPREAD_WEIGHT = 2;

  private final RandomGenerator random;

  NodeScorer(RandomGenerator random) {
    this.random = random;
  }

  /** The chosen node; {@code feasible} is not empty. */
  NodeInfo select(PodInfo pod, List<NodeInfo> feasible) {
    int maxOwned = 0;
    for (NodeInfo n : feasible) {
      maxOwned = Math.max(maxOwned, n.podsOwnedBy(pod.ownerUid()));
    }
    NodeInfo best = null;
    long bestScore = Long.MIN_VALUE;
    int ties = 0;
    for (NodeInfo n : feasible) {
      long score = score(pod, n, maxOwned);
      if (score > bestScore) {
        best = n;
        bestScore = score;
        ties = 1;
      } else if (score == bestScore) {
        ties++;
        if (random.nextInt(ties) == 0) {
          best = n;
        }
      }
    }
    return best;
  }

  /** The node's total score; {@code maxOwned} is the most pods of the pod's owner on any feasible node. */
  static long score(PodInfo pod, NodeInfo node, int maxOwned) {
    Resources used = node.nonZeroRequested().plus(pod.nonZeroRequests());
    long leastAllocated = (free(used.milliCpu(), node.allocatable().milliCpu())
        + free(used.memory(), node.allocatable().memory())) / 2;
    double cpuFraction = fraction(used.milliCpu(), node.allocatable().milliCpu());
    double memoryFraction = fraction(used.memory(), node.allocatable().memory());
    long balanced = (long) ((1 - Math.abs(cpuFraction - memoryFraction) / 2) * MAX_SCORE);
    long spread = maxOwned == 0 ? MAX_SCORE
        : (long) MAX_SCORE * (maxOwned - node.podsOwnedBy(pod.ownerUid())) / maxOwned;
    return leastAllocated + balanced + SPREAD_WEIGHT * spread;
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

package io.listwatch.controllers.replicaset;

import io.listwatch.client.DynamicObject;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * kube's {@code ActivePodsWithRanks} order: the pods to delete first sort first. In order of
 * precedence:
 * <ol>
 *   <li>not assigned to a node before assigned;
 *   <li>Pending before Unknown before Running;
 *   <li>not ready before ready;
 *   <li>lower {@code controller.kubernetes.io/pod-deletion-cost} before higher;
 *   <li>higher rank before lower (rank: how many of the related active pods share the pod's
 *       node, so doubled-up nodes are relieved first);
 *   <li>ready for less time before ready for longer;
 *   <li>more container restarts before fewer;
 *   <li>created later before created earlier.
 * </ol>
 * kube compares ready times and creation times in logarithmic buckets
 * ({@code LogarithmicScaleDown}) to pick randomly among pods of similar age; this order
 * compares them exactly, which is deterministic and a special case of kube's.
 *
 * <p>Immutable; the ranks map is not copied and must not change while sorting.
 */
final class ActivePodsWithRanks implements Comparator<DynamicObject> {

  private final Map<DynamicObject, Integer> ranks;
  private final Instant now;

  /**
   * @param ranks each pod's rank (absent: 0)
   * @param now the time that ready durations are measured at
   */
  ActivePodsWithRanks(Map<DynamicObject, Integer> ranks, Instant now) {
    this.ranks = ranks;
    this.now = now;
  }

  private static int phaseOrder(String phase) {
    return switch (phase) {
      case "Pending" -> 0;
      case "Unknown" -> 1;
      case "Running" -> 2;
      default -> 3;
    };
  }

  @Override
  public int compare(DynamicObject a, DynamicObject b) {
    boolean assignedA = !Pods.nodeName(a).isEmpty();
    boolean assignedB = !Pods.nodeName(b).isEmpty();
    if (assignedA != assignedB) {
      return assignedA ? 1 : -1;
    }
    int phase = Integer.compare(phaseOrder(Pods.phase(a)), phaseOrder(Pods.phase(b)));
    if (phase != 0) {
      return phase;
    }
    boolean readyA = Pods.isReady(a);
    boolean readyB = Pods.isReady(b);
    if (readyA != readyB) {
      return readyA ? 1 : -1;
    }
    int cost = Integer.compare(Pods.deletionCost(a), Pods.deletionCost(b));
    if (cost != 0) {
      return cost;
    }
    int rank = Integer.compare(ranks.getOrDefault(b, 0), ranks.getOrDefault(a, 0));
    if (rank != 0) {
      return rank;
    }
    if (readyA) { // both ready: the more recently ready first
      Optional<Instant> sinceA = Pods.readySince(a);
      Optional<Instant> sinceB = Pods.readySince(b);
      Instant ta = sinceA.orElse(now);
      Instant tb = sinceB.orElse(now);
      int ready = tb.compareTo(ta);
      if (ready != 0) {
        return ready;
      }
    }
    int restarts = Integer.compare(Pods.maxRestarts(b), Pods.maxRestarts(a));
    if (restarts != 0) {
      return restarts;
    }
    return Pods.creationTimestamp(b).compareTo(Pods.creationTimestamp(a));
  }
}

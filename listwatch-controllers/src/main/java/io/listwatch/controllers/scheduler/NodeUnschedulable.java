package io.listwatch.controllers.scheduler;

import java.util.List;

/**
 * Keeps pods off cordoned nodes ({@code spec.unschedulable: true}) unless they tolerate the
 * {@code node.kubernetes.io/unschedulable:NoSchedule} taint, as kube's plugin of the same
 * name. Stateless.
 */
final class NodeUnschedulable implements FilterPlugin {

  static final String REASON = "node(s) were unschedulable";
  private static final Taint TAINT = new Taint(Taint.UNSCHEDULABLE, "", Taint.NO_SCHEDULE);

  @Override
  public List<String> filter(PodInfo pod, NodeInfo node) {
    if (node.unschedulable() && !Toleration.anyTolerates(pod.tolerations(), TAINT)) {
      return List.of(REASON);
    }
    return List.of();
  }
}

package io.listwatch.controllers.scheduler;

import java.util.List;

/**
 * Keeps pods off nodes with a {@code NoSchedule} or {@code NoExecute} taint they do not
 * tolerate ({@code PreferNoSchedule} only affects kube's scoring, not filtering). A node that
 * is not Ready carries kube's {@code node.kubernetes.io/not-ready} taints (put there by the
 * node lifecycle controller), so this is also what keeps pods off such nodes. Stateless.
 */
final class TaintToleration implements FilterPlugin {

  @Override
  public List<String> filter(PodInfo pod, NodeInfo node) {
    for (Taint taint : node.taints()) {
      boolean filtering = taint.effect().equals(Taint.NO_SCHEDULE) || taint.effect().equals(Taint.NO_EXECUTE);
      if (filtering && !Toleration.anyTolerates(pod.tolerations(), taint)) {
        return List.of("node(s) had untolerated taint {" + taint.key() + ": " + taint.value() + "}");
      }
    }
    return List.of();
  }
}

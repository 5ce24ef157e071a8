package io.listwatch.controllers.scheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks that a node has room for a pod, as kube's plugin of the same name: one more pod
 * within {@code allocatable.pods} ("Too many pods"), and the pod's CPU and memory requests
 * within what allocatable leaves after the requests of the pods already there ("Insufficient
 * cpu", "Insufficient memory"). A resource the pod does not request is not checked. Every
 * shortfall is reported, in that order. Stateless.
 */
final class NodeResourcesFit implements FilterPlugin {

  static final String TOO_MANY_PODS = "Too many pods";
  static final String INSUFFICIENT_CPU = "Insufficient cpu";
  static final String INSUFFICIENT_MEMORY = "Insufficient memory";

  @Override
  public List<String> filter(PodInfo pod, NodeInfo node) {
    List<String> reasons = new ArrayList<>(3);
    if (node.pods().size() + 1 > node.allowedPods()) {
      reasons.add(TOO_MANY_PODS);
    }
    Resources want = pod.requests();
    Resources free = node.allocatable().minus(node.requested());
    if (want.milliCpu() > 0 && want.milliCpu() > free.milliCpu()) {
      reasons.add(INSUFFICIENT_CPU);
    }
    if (want.memory() > 0 && want.memory() > free.memory()) {
      reasons.add(INSUFFICIENT_MEMORY);
    }
    return reasons;
  }
}

package io.listwatch.controllers.scheduler;

import java.util.List;

/**
 * Decides whether a pod may run on a node (kube's {@code FilterPlugin}). Implementations are
 * stateless and thread-safe.
 */
interface FilterPlugin {

  /** kube's name of the plugin, e.g. {@code NodeAffinity}: by default the class's, named as kube names it. */
  default String name() {
    return getClass().getSimpleName();
  }

  /**
   * Why {@code pod} cannot run on {@code node}, in kube's words (e.g. {@code Insufficient cpu}),
   * or an empty list when it can.
   */
  List<String> filter(PodInfo pod, NodeInfo node);

  /** The filters kube enables by default that apply here, in kube's order. */
  static List<FilterPlugin> defaults() {
    return List.of(new NodeUnschedulable(), new TaintToleration(), new NodeAffinity(), new NodeResourcesFit());
  }

  /**
   * The reasons of the first of {@code filters} that rejects the node (kube stops at the
   * first failing plugin), or an empty list when all accept it.
   */
  static List<String> run(List<FilterPlugin> filters, PodInfo pod, NodeInfo node) {
    for (FilterPlugin f : filters) {
      List<String> reasons = f.filter(pod, node);
      if (!reasons.isEmpty()) {
        return reasons;
      }
    }
    return List.of();
  }
}

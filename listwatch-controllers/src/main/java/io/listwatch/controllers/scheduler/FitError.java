package io.listwatch.controllers.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The message of a pod no node can take, worded as kube's {@code FitError}:
 * {@code 0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2
 * Insufficient cpu.} Each reason is counted over the nodes that gave it, written
 * {@code "<count> <reason>"}, and the entries are sorted as strings (so a count of 10 sorts
 * before 2, as in kube). With no nodes at all, kube's {@code no nodes available to schedule
 * pods}. Stateless.
 */
final class FitError {

  static final String NO_NODES = "no nodes available to schedule pods";

  private FitError() {
  }

  /**
   * The message for {@code nodeCount} nodes that all failed, with each node's reasons.
   *
   * @param nodeCount how many nodes were considered
   * @param reasonsByNode the reasons each rejecting node gave
   */
  static String message(int nodeCount, Map<String, List<String>> reasonsByNode) {
    if (nodeCount == 0) {
      return NO_NODES;
    }
    Map<String, Integer> histogram = new TreeMap<>();
    for (List<String> reasons : reasonsByNode.values()) {
      for (String r : reasons) {
        histogram.merge(r, 1, Integer::sum);
      }
    }
    List<String> entries = new ArrayList<>();
    histogram.forEach((reason, count) -> entries.add(count + " " + reason));
    entries.sort(null);
    return "0/" + nodeCount + " nodes are available: " + String.join(", ", entries) + ".";
  }
}

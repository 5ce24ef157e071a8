package io.listwatch.controllers.scheduler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods of one node that share a namespace, labels and whether they are being deleted: the
 * unit in which inter-pod affinity and topology spread count pods, so that the replicas of a
 * ReplicaSet on a node (same labels) are matched against a selector once, not once each.
 * Immutable.
 *
 * @param namespace the pods' namespace
 * @param labels their labels
 * @param deleting whether they are being deleted ({@code metadata.deletionTimestamp} set)
 * @param count how many pods of the node are in the group
 */
record PodGroup(String namespace, Map<String, String> labels, boolean deleting, int count) {

  /** The groups of {@code pods}, in no particular order. */
  static List<PodGroup> of(Collection<PodInfo> pods) {
    Map<PodGroup, int[]> counts = new HashMap<>();
    for (PodInfo p : pods) {
      counts.computeIfAbsent(new PodGroup(p.object().namespace(), p.labels(), p.deleting(), 0), k -> new int[1])[0]++;
    }
    List<PodGroup> groups = new ArrayList<>(counts.size());
    counts.forEach((k, n) -> groups.add(new PodGroup(k.namespace, k.labels, k.deleting, n[0])));
    return List.copyOf(groups);
  }
}

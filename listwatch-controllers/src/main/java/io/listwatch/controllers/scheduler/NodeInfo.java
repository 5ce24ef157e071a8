package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node and the pods on it, as one scheduling cycle sees them (kube's {@code NodeInfo}).
 * Immutable: the {@link SchedulerCache} builds a new one when the node or its pods change.
 *
 * @param name the node's name
 * @param labels its labels
 * @param taints {@code spec.taints}
 * @param unschedulable {@code spec.unschedulable} (cordoned)
 * @param allocatable {@code status.allocatable}'s CPU and memory
 * @param allowedPods {@code status.allocatable.pods}
 * @param pods the pods bound (or assumed) to the node, by {@code namespace/name}
 * @param requested the sum of their requests
 * @param nonZeroRequested the sum of their non-zero requests (for scoring)
 * @param ownerCounts how many of its pods each controller owner has, by owner uid
 * @param podsWithAffinity its pods that have any pod affinity or anti-affinity term (kube's
 *     {@code PodsWithAffinity}), so inter-pod affinity looks at these only
 * @param podsWithRequiredAntiAffinity its pods with a required anti-affinity term, which every
 *     incoming pod must respect
 * @param podGroups its pods grouped by namespace and labels, for counting pods a selector matches
 */
record NodeInfo(String name, Map<String, String> labels, List<Taint> taints, boolean unschedulable,
    Resources allocatable, long allowedPods, Map<String, PodInfo> pods, Resources requested,
    Resources nonZeroRequested, Map<String, Integer> ownerCounts, List<PodInfo> podsWithAffinity,
    List<PodInfo> podsWithRequiredAntiAffinity, List<PodGroup> podGroups) {

  /** The node's own fields and the pods on it. */
  static NodeInfo of(DynamicObject node, Map<String, PodInfo> pods) {
    ObjectNode tree = node.toTree();
    JsonNode allocatable = tree.path("status").path("allocatable");
    return of(node.name(), node.labels(), Taint.of(tree.path("spec").path("taints")),
        tree.path("spec").path("unschedulable").asBoolean(false), Resources.of(allocatable),
        Resources.value(allocatable.path("pods")), pods);
  }

  /** A node from its parts (tests build fixtures with it). */
  static NodeInfo of(String name, Map<String, String> labels, List<Taint> taints, boolean unschedulable,
      Resources allocatable, long allowedPods, Map<String, PodInfo> pods) {
    Resources requested = Resources.ZERO;
    Resources nonZero = Resources.ZERO;
    Map<String, Integer> owners = new HashMap<>();
    List<PodInfo> withAffinity = new ArrayList<>();
    List<PodInfo> withRequiredAnti = new ArrayList<>();
    for (PodInfo p : pods.values()) {
      requested = requested.plus(p.requests());
      nonZero = nonZero.plus(p.nonZeroRequests());
      if (!p.ownerUid().isEmpty()) {
        owners.merge(p.ownerUid(), 1, Integer::sum);
      }
      if (!p.affinity().isEmpty()) {
        withAffinity.add(p);
        if (!p.affinity().requiredAnti().isEmpty()) {
          withRequiredAnti.add(p);
        }
      }
    }
    return new NodeInfo(name, Map.copyOf(labels), List.copyOf(taints), unschedulable, allocatable, allowedPods,
        Map.copyOf(pods), requested, nonZero, Map.copyOf(owners), List.copyOf(withAffinity),
        List.copyOf(withRequiredAnti), PodGroup.of(pods.values()));
  }

  /** The same node with {@code pods} on it instead (the node's own fields are not parsed again). */
  NodeInfo withPods(Map<String, PodInfo> pods) {
    return of(name, labels, taints, unschedulable, allocatable, allowedPods, pods);
  }

  /** How many of the node's pods have the controller owner {@code ownerUid}. */
  int podsOwnedBy(String ownerUid) {
    return ownerUid.isEmpty() ? 0 : ownerCounts.getOrDefault(ownerUid, 0);
  }
}

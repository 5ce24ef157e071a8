package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a pod's {@code spec.topologySpreadConstraints}. The pods it counts are those of
 * the pod's own namespace whose labels match {@code labelSelector} (a missing selector counts
 * none, as kube). Immutable.
 *
 * @param maxSkew the largest allowed difference between a domain's count and the smallest
 * @param topologyKey the node label whose value is the domain
 * @param doNotSchedule {@code whenUnsatisfiable: DoNotSchedule} (a filter); false for
 *     {@code ScheduleAnyway} (a score)
 * @param selector the {@code labelSelector}, null when missing or unparseable
 * @param minDomains {@code minDomains}, 1 when unset
 */
record TopologySpreadConstraint(int maxSkew, String topologyKey, boolean doNotSchedule, LabelSelector selector,
    int minDomains) {

  static List<TopologySpreadConstraint> of(JsonNode constraints) {
    List<TopologySpreadConstraint> list = new ArrayList<>();
    for (JsonNode c : constraints) {
      LabelSelector selector = null;
      JsonNode s = c.get("labelSelector");
      if (s != null && s.isObject()) {
        try {
          selector = LabelSelector.fromObject(s);
        } catch (StatusException e) {
          selector = null;
        }
      }
      list.add(new TopologySpreadConstraint(Math.max(1, c.path("maxSkew").asInt(1)), c.path("topologyKey").asText(""),
          !c.path("whenUnsatisfiable").asText("DoNotSchedule").equals("ScheduleAnyway"), selector,
          Math.max(1, c.path("minDomains").asInt(1))));
    }
    return List.copyOf(list);
  }

  /** Whether the pods of {@code group} count for a pod in {@code namespace}. */
  boolean counts(PodGroup group, String namespace) {
    return selector != null && !group.deleting() && group.namespace().equals(namespace)
        && selector.matches(group.labels());
  }
}

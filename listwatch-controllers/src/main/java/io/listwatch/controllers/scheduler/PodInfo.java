package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod as the scheduler reads it, parsed once from the informer's object. Immutable.
 *
 * @param object the pod as the informer holds it
 * @param spec the pod's {@code spec}
 * @param nodeName {@code spec.nodeName}, {@code ""} while unscheduled
 * @param schedulerName {@code spec.schedulerName}, defaulted to {@code default-scheduler}
 * @param phase {@code status.phase}
 * @param deleting whether {@code metadata.deletionTimestamp} is set
 * @param priority {@code spec.priority}, 0 when unset
 * @param nodeSelector {@code spec.nodeSelector}
 * @param tolerations {@code spec.tolerations}
 * @param requests the requests the fit filter counts ({@link PodRequests#of})
 * @param nonZeroRequests the requests the scorers count ({@link PodRequests#nonZero})
 * @param ownerUid the uid of the controller owner reference, {@code ""} if none
 * @param labels {@code metadata.labels}
 * @param affinity the pod (anti-)affinity terms, {@link PodAffinity#NONE} without any
 * @param spreadConstraints {@code spec.topologySpreadConstraints}
 */
record PodInfo(DynamicObject object, JsonNode spec, String nodeName, String schedulerName, String phase,
    boolean deleting, int priority, Map<String, String> nodeSelector, List<Toleration> tolerations,
    Resources requests, Resources nonZeroRequests, String ownerUid, Map<String, String> labels,
    PodAffinity affinity, List<TopologySpreadConstraint> spreadConstraints) {

  static final String DEFAULT_SCHEDULER = "default-scheduler";

  static PodInfo of(DynamicObject pod) {
    ObjectNode tree = pod.toTree();
    JsonNode spec = tree.path("spec");
    Map<String, String> selector = new HashMap<>();
    spec.path("nodeSelector").properties().forEach(e -> selector.put(e.getKey(), e.getValue().asText()));
    String owner = "";
    for (JsonNode ref : tree.path("metadata").path("ownerReferences")) {
      if (ref.path("controller").asBoolean(false)) {
        owner = ref.path("uid").asText("");
      }
    }
    String schedulerName = spec.path("schedulerName").asText("");
    return new PodInfo(pod, spec, spec.path("nodeName").asText(""),
        schedulerName.isEmpty() ? DEFAULT_SCHEDULER : schedulerName, tree.path("status").path("phase").asText(""),
        tree.path("metadata").hasNonNull("deletionTimestamp"), spec.path("priority").asInt(0), Map.copyOf(selector),
        Toleration.of(spec.path("tolerations")), PodRequests.of(spec), PodRequests.nonZero(spec), owner,
        pod.labels(), PodAffinity.of(spec.path("affinity"), pod.namespace()),
        TopologySpreadConstraint.of(spec.path("topologySpreadConstraints")));
  }

  /** {@code namespace/name}, the queue's and the cache's key. */
  String key() {
    return object.namespace() + "/" + object.name();
  }

  /** Whether the pod has finished ({@code Succeeded} or {@code Failed}) and holds nothing. */
  boolean terminal() {
    return phase.equals("Succeeded") || phase.equals("Failed");
  }

  /** {@code spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution}, possibly missing. */
  JsonNode requiredNodeAffinity() {
    return spec.path("affinity").path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution");
  }

  /** {@code spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution}, possibly missing. */
  JsonNode preferredNodeAffinity() {
    return spec.path("affinity").path("nodeAffinity").path("preferredDuringSchedulingIgnoredDuringExecution");
  }
}

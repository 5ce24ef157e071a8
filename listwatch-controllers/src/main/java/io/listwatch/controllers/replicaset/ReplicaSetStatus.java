package io.listwatch.controllers.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A ReplicaSet's status as kube's replicaset controller computes and writes it
 * ({@code calculateStatus}, {@code updateReplicaSetStatus}): {@code replicas} (active pods it
 * owns), {@code fullyLabeledReplicas} (those whose labels match the template's),
 * {@code readyReplicas}, {@code availableReplicas} (ready for {@code minReadySeconds}),
 * {@code observedGeneration}, and the {@code ReplicaFailure} condition, set while creating or
 * deleting pods fails and removed once it works again. Written through {@code /status}, only
 * when something changed. Stateless.
 */
final class ReplicaSetStatus {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final String REPLICA_FAILURE = "ReplicaFailure";
  /** kube's {@code statusUpdateRetries}: one retry on a fresh copy after a failed write. */
  private static final int STATUS_UPDATE_RETRIES = 1;

  private ReplicaSetStatus() {}

  /**
   * The new status of {@code rs} owning the active pods {@code owned}, after
   * {@code manageError} (null when creating and deleting went well).
   */
  static ObjectNode calculate(DynamicObject rs, List<DynamicObject> owned, RuntimeException manageError,
      Instant now) {
    Map<String, String> templateLabels = ReplicaSetSpec.templateLabels(rs);
    long minReadySeconds = ReplicaSetSpec.minReadySeconds(rs);
    LabelSelector fullyLabeled = LabelSelector.parse(selectorOf(templateLabels));
    int fully = 0;
    int ready = 0;
    int available = 0;
    for (DynamicObject pod : owned) {
      if (fullyLabeled.matches(pod.labels())) {
        fully++;
      }
      if (Pods.isReady(pod)) {
        ready++;
        if (Pods.isAvailable(pod, minReadySeconds, now)) {
          available++;
        }
      }
    }
    ObjectNode status = MAPPER.createObjectNode();
    status.put("replicas", owned.size());
    putNonZero(status, "fullyLabeledReplicas", fully);
    putNonZero(status, "readyReplicas", ready);
    putNonZero(status, "availableReplicas", available);
    putNonZero(status, "observedGeneration", rs.get("status", "observedGeneration").map(JsonNode::asLong).orElse(0L));
    ArrayNode conditions = MAPPER.createArrayNode();
    JsonNode failure = null;
    for (JsonNode c : rs.get("status", "conditions").orElse(MAPPER.createArrayNode())) {
      if (REPLICA_FAILURE.equals(c.path("type").asText())) {
        failure = c;
      } else {
        conditions.add(c);
      }
    }
    if (manageError != null) {
      if (failure == null) {
        int diff = owned.size() - ReplicaSetSpec.replicas(rs);
        ObjectNode c = conditions.addObject();
        c.put("type", REPLICA_FAILURE);
        c.put("status", "True");
        c.put("lastTransitionTime", ObjectMetaRules.timestamp(now));
        c.put("reason", diff < 0 ? "FailedCreate" : "FailedDelete");
        c.put("message", String.valueOf(manageError.getMessage()));
      } else {
        conditions.add(failure); // kept as it was, transition time included
      }
    }
    if (!conditions.isEmpty()) {
      status.set("conditions", conditions);
    }
    return status;
  }

  /**
   * Writes {@code status} (with {@code observedGeneration} set to the generation) unless the
   * ReplicaSet already has it; returns the ReplicaSet as stored.
   */
  static DynamicObject update(ResourceClient<DynamicObject> replicaSets, DynamicObject rs, ObjectNode status) {
    long generation = rs.get("metadata", "generation").map(JsonNode::asLong).orElse(0L);
    status.remove("observedGeneration");
    putNonZero(status, "observedGeneration", generation);
    if (same(rs.get("status").orElse(null), status)) {
      return rs;
    }
    DynamicObject current = rs;
    for (int attempt = 0; ; attempt++) {
      ObjectNode tree = current.toTree();
      tree.set("status", status);
      try {
        return replicaSets.updateStatus(DynamicObject.of(tree));
      } catch (StatusException e) {
        if (attempt >= STATUS_UPDATE_RETRIES || e.code() == 404) {
          throw e;
        }
        Optional<DynamicObject> fresh = replicaSets.get(rs.namespace(), rs.name());
        if (fresh.isEmpty()) {
          throw e;
        }
        current = fresh.get();
      }
    }
  }

  /** Whether two statuses agree on every field the controller writes (absent counts as 0 / empty). */
  static boolean same(JsonNode old, ObjectNode updated) {
    if (old == null || !old.isObject()) {
      return false;
    }
    for (String f : List.of("replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas",
        "observedGeneration")) {
      if (old.path(f).asLong(0) != updated.path(f).asLong(0)) {
        return false;
      }
    }
    if (!old.has("replicas")) {
      return false;
    }
    JsonNode oldConditions = old.path("conditions").isArray() ? old.path("conditions") : MAPPER.createArrayNode();
    JsonNode newConditions = updated.path("conditions").isArray() ? updated.path("conditions")
        : MAPPER.createArrayNode();
    return oldConditions.equals(newConditions);
  }

  private static void putNonZero(ObjectNode status, String field, long value) {
    if (value != 0) {
      status.put(field, value);
    }
  }

  private static String selectorOf(Map<String, String> labels) {
    StringBuilder s = new StringBuilder();
    labels.forEach((k, v) -> s.append(s.isEmpty() ? "" : ",").append(k).append('=').append(v));
    return s.toString();
  }
}

package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One entry of a Deployment's {@code status.conditions}. Immutable.
 *
 * @param type {@code Available}, {@code Progressing} or {@code ReplicaFailure}
 * @param status {@code True}, {@code False} or {@code Unknown}
 * @param lastUpdateTime RFC 3339, the last time the condition was written
 * @param lastTransitionTime RFC 3339, the last time {@code status} changed
 * @param reason kube's reason, e.g. {@code NewReplicaSetAvailable}
 * @param message a human-readable message
 */
record DeploymentCondition(String type, String status, String lastUpdateTime, String lastTransitionTime,
    String reason, String message) {

  static final String AVAILABLE = "Available";
  static final String PROGRESSING = "Progressing";
  static final String REPLICA_FAILURE = "ReplicaFailure";

  // kube's reasons (deployment util)
  static final String NEW_RS_REASON = "NewReplicaSetCreated";
  static final String FOUND_NEW_RS_REASON = "FoundNewReplicaSet";
  static final String FAILED_RS_CREATE_REASON = "ReplicaSetCreateError";
  static final String RS_UPDATED_REASON = "ReplicaSetUpdated";
  static final String NEW_RS_AVAILABLE_REASON = "NewReplicaSetAvailable";
  static final String TIMED_OUT_REASON = "ProgressDeadlineExceeded";
  static final String PAUSED_REASON = "DeploymentPaused";
  static final String RESUMED_REASON = "DeploymentResumed";
  static final String MIN_AVAILABLE_REASON = "MinimumReplicasAvailable";
  static final String MIN_UNAVAILABLE_REASON = "MinimumReplicasUnavailable";

  static DeploymentCondition read(JsonNode n) {
    return new DeploymentCondition(n.path("type").asText(""), n.path("status").asText(""),
        n.path("lastUpdateTime").asText(""), n.path("lastTransitionTime").asText(""),
        n.path("reason").asText(""), n.path("message").asText(""));
  }

  /** kube's {@code NewDeploymentCondition}: both times now. */
  static DeploymentCondition of(String type, String status, String reason, String message, String now) {
    return new DeploymentCondition(type, status, now, now, reason, message);
  }

  DeploymentCondition withLastTransitionTime(String time) {
    return new DeploymentCondition(type, status, lastUpdateTime, time, reason, message);
  }

  ObjectNode toTree() {
    ObjectNode n = Trees.NODES.objectNode();
    n.put("type", type).put("status", status);
    putIfSet(n, "lastUpdateTime", lastUpdateTime);
    putIfSet(n, "lastTransitionTime", lastTransitionTime);
    putIfSet(n, "reason", reason);
    putIfSet(n, "message", message);
    return n;
  }

  private static void putIfSet(ObjectNode n, String field, String value) {
    if (!value.isEmpty()) {
      n.put(field, value);
    }
  }
}

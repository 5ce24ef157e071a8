package io.listwatch.controllers.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.client.DynamicObject;
import io.listwatch.controllers.ControllerRefManager;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the replicaset controller reads of a Pod (kube's {@code podutil} helpers): phase,
 * readiness and the time it became ready, availability after {@code minReadySeconds}, restarts,
 * the deletion cost annotation. Stateless.
 */
final class Pods {

  /** kube's annotation that ranks pods for scale-down: lower cost goes first. */
  static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

  private Pods() {}

  static String phase(DynamicObject pod) {
    return pod.get("status", "phase").map(JsonNode::asText).orElse("");
  }

  static String nodeName(DynamicObject pod) {
    return pod.get("spec", "nodeName").map(JsonNode::asText).orElse("");
  }

  /** Not Succeeded, not Failed, not being deleted (kube's {@code IsPodActive}). */
  static boolean isActive(DynamicObject pod) {
    String phase = phase(pod);
    return !"Succeeded".equals(phase) && !"Failed".equals(phase) && !ControllerRefManager.isBeingDeleted(pod);
  }

  private static Optional<JsonNode> readyCondition(DynamicObject pod) {
    Optional<JsonNode> conditions = pod.get("status", "conditions");
    if (conditions.isPresent()) {
      for (JsonNode c : conditions.get()) {
        if ("Ready".equals(c.path("type").asText())) {
          return Optional.of(c);
        }
      }
    }
    return Optional.empty();
  }

  /** The Ready condition is True. */
  static boolean isReady(DynamicObject pod) {
    return readyCondition(pod).map(c -> "True".equals(c.path("status").asText())).orElse(false);
  }

  /** When the pod became ready (the Ready condition's lastTransitionTime), if it is ready. */
  static Optional<Instant> readySince(DynamicObject pod) {
    return readyCondition(pod)
        .filter(c -> "True".equals(c.path("status").asText()))
        .map(c -> c.path("lastTransitionTime").asText(""))
        .filter(s -> !s.isEmpty())
        .map(Instant::parse);
  }

  /**
   * Ready for at least {@code minReadySeconds} at {@code now} (kube's {@code IsPodAvailable});
   * with 0, ready is available.
   */
  static boolean isAvailable(DynamicObject pod, long minReadySeconds, Instant now) {
    if (!isReady(pod)) {
      return false;
    }
    if (minReadySeconds == 0) {
      return true;
    }
    Optional<Instant> since = readySince(pod);
    return since.isPresent() && !since.get().plus(Duration.ofSeconds(minReadySeconds)).isAfter(now);
  }

  /** The highest restartCount of the pod's containers. */
  static int maxRestarts(DynamicObject pod) {
    int max = 0;
    Optional<JsonNode> statuses = pod.get("status", "containerStatuses");
    if (statuses.isPresent()) {
      for (JsonNode s : statuses.get()) {
        max = Math.max(max, s.path("restartCount").asInt(0));
      }
    }
    return max;
  }

  /** The deletion cost annotation; 0 when absent or not an int32 (kube's {@code getDeletionCostFromPodAnnotations}). */
  static int deletionCost(DynamicObject pod) {
    String v = pod.annotations().get(DELETION_COST);
    if (v == null) {
      return 0;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static Instant creationTimestamp(DynamicObject pod) {
    return pod.get("metadata", "creationTimestamp").map(JsonNode::asText).filter(s -> !s.isEmpty())
        .map(Instant::parse).orElse(Instant.EPOCH);
  }

  /** {@code namespace/name}. */
  static String key(DynamicObject pod) {
    return pod.namespace() + "/" + pod.name();
  }
}

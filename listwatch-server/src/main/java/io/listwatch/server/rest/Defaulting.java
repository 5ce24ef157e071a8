package io.listwatch.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.registry.ResourceDefinition;

/**
 * The part of kube's defaulting ({@code SetDefaults_*} of the versioned types) the server
 * applies, to every object written through the main resource (create, update, patch), as kube
 * defaults every object it decodes. A field given (even {@code 0}) is kept; a missing or
 * {@code null} one, or an empty string where kube defaults an empty string, gets kube's
 * default:
 *
 * <ul>
 *   <li>Deployment: {@code replicas} 1, {@code strategy} RollingUpdate with 25% max unavailable
 *       and 25% max surge, {@code revisionHistoryLimit} 10, {@code progressDeadlineSeconds} 600;
 *   <li>ReplicaSet: {@code replicas} 1;
 *   <li>StatefulSet: {@code replicas} 1, {@code podManagementPolicy} OrderedReady,
 *       {@code updateStrategy} RollingUpdate with partition 0, {@code revisionHistoryLimit} 10,
 *       {@code persistentVolumeClaimRetentionPolicy} Retain when deleted and when scaled;
 *   <li>DaemonSet: {@code updateStrategy} RollingUpdate with max unavailable 1 and max surge 0,
 *       {@code revisionHistoryLimit} 10;
 *   <li>PriorityClass: {@code preemptionPolicy} PreemptLowerPriority.
 * </ul>
 *
 * <p>Clients rely on these: {@code kubectl describe} reads the replicas of these workloads and a
 * PriorityClass's preemption policy without checking that they are there, and {@code kubectl
 * rollout status} refuses a StatefulSet or DaemonSet whose update strategy is not RollingUpdate.
 * The pod template and the rest of kube's defaulting are not applied. Stateless.
 */
final class Defaulting {

  /** kube's default {@code spec.replicas} of the workloads that have one. */
  static final int DEFAULT_REPLICAS = 1;
  private static final int REVISION_HISTORY_LIMIT = 10;
  private static final String ROLLING_UPDATE = "RollingUpdate";

  private Defaulting() {
  }

  /** Applies kube's defaults for {@code def}'s kind to {@code obj}, in place. */
  static void apply(ResourceDefinition def, ObjectNode obj) {
    if (def.group().equals("apps")) {
      switch (def.plural()) {
        case "deployments" -> deployment(spec(obj));
        case "replicasets" -> defaultIfAbsent(spec(obj), "replicas", DEFAULT_REPLICAS);
        case "statefulsets" -> statefulSet(spec(obj));
        case "daemonsets" -> daemonSet(spec(obj));
        default -> { }
      }
    } else if (def.group().equals("scheduling.k8s.io") && def.plural().equals("priorityclasses")) {
      defaultIfAbsent(obj, "preemptionPolicy", "PreemptLowerPriority");
    }
  }

  private static void deployment(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
    ObjectNode strategy = object(spec, "strategy");
    if (strategy != null) {
      defaultIfAbsent(strategy, "type", ROLLING_UPDATE);
      if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
        ObjectNode rollingUpdate = object(strategy, "rollingUpdate");
        if (rollingUpdate != null) {
          defaultIfAbsent(rollingUpdate, "maxUnavailable", "25%");
          defaultIfAbsent(rollingUpdate, "maxSurge", "25%");
        }
      }
    }
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
    defaultIfAbsent(spec, "progressDeadlineSeconds", 600);
  }

  private static void statefulSet(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "podManagementPolicy", "OrderedReady");
    ObjectNode strategy = object(spec, "updateStrategy");
    if (strategy != null) {
      if (absent(strategy, "type")) {
        // kube gives a defaulted RollingUpdate its parameters; one the client chose keeps what it sent
        strategy.put("type", ROLLING_UPDATE);
        object(strategy, "rollingUpdate");
      }
      if (strategy.path("type").asText().equals(ROLLING_UPDATE) && strategy.get("rollingUpdate") instanceof ObjectNode r) {
        defaultIfAbsent(r, "partition", 0);
      }
    }
    ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy");
    if (retention != null) {
      defaultIfAbsent(retention, "whenDeleted", "Retain");
      defaultIfAbsent(retention, "whenScaled", "Retain");
    }
    defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
  }

  private static void daemonSet(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    ObjectNode strategy = object(spec, "updateStrategy");
    if (strategy != null) {
      defaultIfAbsent(strategy, "type", ROLLING_UPDATE);
      if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
        ObjectNode rollingUpdate = object(strategy, "rollingUpdate");
        if (rollingUpdate != null) {
          defaultIfAbsent(rollingUpdate, "maxUnavailable", 1);
          defaultIfAbsent(rollingUpdate, "maxSurge", 0);
        }
      }
    }
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
  }

  /** {@code obj.spec}, created when missing or null; null when it is not an object (left to validation). */
  private static ObjectNode spec(ObjectNode obj) {
    return object(obj, "spec");
  }

  /** {@code parent.field}, created when missing or null; null when it is something else than an object. */
  private static ObjectNode object(ObjectNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      return parent.putObject(field);
    }
    return node instanceof ObjectNode o ? o : null;
  }

  private static boolean absent(ObjectNode obj, String field) {
    JsonNode current = obj.get(field);
    return current == null || current.isNull() || (current.isTextual() && current.asText().isEmpty());
  }

  private static void defaultIfAbsent(ObjectNode obj, String field, int value) {
    if (absent(obj, field)) {
      obj.put(field, value);
    }
  }

  private static void defaultIfAbsent(ObjectNode obj, String field, String value) {
    if (absent(obj, field)) {
      obj.put(field, value);
    }
  }
}

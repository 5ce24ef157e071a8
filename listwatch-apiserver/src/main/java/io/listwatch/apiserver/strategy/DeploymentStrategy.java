package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;
import static io.listwatch.apiserver.strategy.Fields.object;
import static io.listwatch.apiserver.strategy.WorkloadDefaults.DEFAULT_REPLICAS;
import static io.listwatch.apiserver.strategy.WorkloadDefaults.REVISION_HISTORY_LIMIT;
import static io.listwatch.apiserver.strategy.WorkloadDefaults.ROLLING_UPDATE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * Deployments (apps/v1), kube's strategy and defaults: {@code replicas: 1}, a RollingUpdate
 * strategy of 25% max unavailable and 25% max surge (none for a strategy of another type),
 * {@code revisionHistoryLimit: 10}, {@code progressDeadlineSeconds: 600} and the pod
 * template's defaults; a {@code /status} write keeps the stored labels.
 */
final class DeploymentStrategy extends WorkloadStrategy {

  @Override
  void specDefaults(ObjectNode spec) {
    defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
    ObjectNode strategy = object(spec, "strategy", true);
    if (strategy != null) {
      defaultIfAbsent(strategy, "type", ROLLING_UPDATE);
      if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
        ObjectNode rollingUpdate = object(strategy, "rollingUpdate", true);
        defaultIfAbsent(rollingUpdate, "maxUnavailable", "25%");
        defaultIfAbsent(rollingUpdate, "maxSurge", "25%");
      }
    }
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
    defaultIfAbsent(spec, "progressDeadlineSeconds", 600);
  }

  @Override
  void validateSpec(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    WorkloadValidation.deployment(spec, oldSpec, errors);
  }
}

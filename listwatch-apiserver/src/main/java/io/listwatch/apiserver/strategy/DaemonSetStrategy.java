package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;
import static io.listwatch.apiserver.strategy.Fields.object;
import static io.listwatch.apiserver.strategy.WorkloadDefaults.REVISION_HISTORY_LIMIT;
import static io.listwatch.apiserver.strategy.WorkloadDefaults.ROLLING_UPDATE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * DaemonSets (apps/v1), kube's strategy and defaults: a RollingUpdate strategy of 1 max
 * unavailable and 0 max surge (none for a strategy of another type), {@code
 * revisionHistoryLimit: 10} and the pod template's defaults ({@code kubectl rollout status}
 * refuses a DaemonSet whose update strategy is not RollingUpdate); a {@code /status} write
 * keeps the stored labels; the template generation annotation is the server's
 * ({@link DaemonSetTemplateGeneration}).
 */
final class DaemonSetStrategy extends WorkloadStrategy {

  @Override
  void specDefaults(ObjectNode spec) {
    ObjectNode strategy = object(spec, "updateStrategy", true);
    if (strategy != null) {
      defaultIfAbsent(strategy, "type", ROLLING_UPDATE);
      if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
        ObjectNode rollingUpdate = object(strategy, "rollingUpdate", true);
        defaultIfAbsent(rollingUpdate, "maxUnavailable", 1);
        defaultIfAbsent(rollingUpdate, "maxSurge", 0);
      }
    }
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
  }

  @Override
  public void prepareForCreate(ObjectNode obj, java.time.Instant now) {
    DaemonSetTemplateGeneration.onCreate(obj);
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    DaemonSetTemplateGeneration.onUpdate(obj, old, true);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    super.prepareForStatusUpdate(obj, old);
    DaemonSetTemplateGeneration.onUpdate(obj, old, false);
  }

  @Override
  void validateSpec(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    WorkloadValidation.daemonSet(spec, oldSpec, errors);
  }
}

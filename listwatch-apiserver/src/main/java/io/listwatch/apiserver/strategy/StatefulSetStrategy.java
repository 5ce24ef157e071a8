package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.absent;
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
 * StatefulSets (apps/v1), kube's strategy and defaults: {@code replicas: 1},
 * {@code podManagementPolicy: OrderedReady}, a RollingUpdate strategy (partition 0 when its
 * parameters are there or the type was defaulted), {@code revisionHistoryLimit: 10}, PVCs
 * retained when deleted and when scaled, and the pod template's defaults ({@code kubectl
 * rollout status} refuses a StatefulSet whose update strategy is not RollingUpdate); a
 * {@code /status} write keeps the stored labels.
 */
final class StatefulSetStrategy extends WorkloadStrategy {

  @Override
  void specDefaults(ObjectNode spec) {
    defaultIfAbsent(spec, "podManagementPolicy", "OrderedReady");
    ObjectNode strategy = object(spec, "updateStrategy", true);
    if (strategy != null) {
      if (absent(strategy, "type")) {
        // kube gives a defaulted RollingUpdate its parameters; one the client chose keeps what it sent
        strategy.put("type", ROLLING_UPDATE);
        object(strategy, "rollingUpdate", true);
      }
      if (strategy.path("type").asText().equals(ROLLING_UPDATE) && strategy.get("rollingUpdate") instanceof ObjectNode r) {
        defaultIfAbsent(r, "partition", 0);
      }
    }
    ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy", true);
    defaultIfAbsent(retention, "whenDeleted", "Retain");
    defaultIfAbsent(retention, "whenScaled", "Retain");
    defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
  }

  @Override
  void validateSpec(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    WorkloadValidation.statefulSet(spec, oldSpec, errors);
  }
}

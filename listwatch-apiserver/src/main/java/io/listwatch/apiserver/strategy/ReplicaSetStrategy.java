package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * ReplicaSets (apps/v1), kube's strategy and defaults: {@code replicas: 1} and the pod
 * template's defaults; a {@code /status} write keeps the stored labels.
 */
final class ReplicaSetStrategy extends WorkloadStrategy {

  @Override
  void specDefaults(ObjectNode spec) {
    Fields.defaultIfAbsent(spec, "replicas", WorkloadDefaults.DEFAULT_REPLICAS);
  }

  @Override
  void validateSpec(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    WorkloadValidation.replicaSet(spec, oldSpec, errors);
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * ReplicaSets (apps/v1), kube's strategy and defaults: {@code replicas: 1} and the pod
 * template's defaults; a {@code /status} write keeps the stored labels.
 */
final class ReplicaSetStrategy extends WorkloadStrategy {

  ReplicaSetStrategy() {
    super(true);
  }

  @Override
  void specDefaults(ObjectNode spec) {
    Fields.defaultIfAbsent(spec, "replicas", WorkloadDefaults.DEFAULT_REPLICAS);
  }
}

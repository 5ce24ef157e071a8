package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * ReplicaSets (apps/v1), kube's strategy and defaults: {@code replicas: 1} and the pod
 * template's defaults; a {@code /status} write keeps the stored labels.
 */
final class ReplicaSetStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    Fields.defaultIfAbsent(spec, "replicas", WorkloadDefaults.DEFAULT_REPLICAS);
    PodSpecDefaults.template(spec);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    Fields.keepStoredMetadata(obj, old, "labels");
  }
}

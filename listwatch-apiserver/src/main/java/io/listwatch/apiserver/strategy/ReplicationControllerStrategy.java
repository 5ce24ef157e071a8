package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * ReplicationControllers (v1), kube's strategy, defaults and validation. Defaults
 * ({@code SetDefaults_ReplicationController}): when the template has labels, an empty
 * {@code spec.selector} and empty {@code metadata.labels} become those labels; {@code replicas: 1};
 * then the template's pod spec defaults. Validation ({@code ValidateReplicationController},
 * {@link WorkloadValidation#replicationController}) on create and update; the generation moves
 * with the spec and a {@code /status} write keeps the stored labels (as the apps workloads).
 * Stateless.
 */
final class ReplicationControllerStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    if (spec == null) {
      return;
    }
    JsonNode labels = spec.path("template").path("metadata").path("labels");
    if (labels.isObject()) {
      if (spec.path("selector").isEmpty()) {
        spec.set("selector", labels.deepCopy());
      }
      ObjectNode metadata = Fields.object(obj, "metadata", true);
      if (metadata != null && metadata.path("labels").isEmpty()) {
        metadata.set("labels", labels.deepCopy());
      }
    }
    Fields.defaultIfAbsent(spec, "replicas", WorkloadDefaults.DEFAULT_REPLICAS);
    PodSpecDefaults.template(spec);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    WorkloadValidation.replicationController(obj.path("spec"), errors);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    Fields.keepStoredMetadata(obj, old, "labels");
  }

  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    WorkloadStrategy.templateWarnings(obj, old, "spec.template", obj.path("spec").path("template"), warn);
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * What kube's strategies of the apps workloads share (Deployments, ReplicaSets, StatefulSets,
 * DaemonSets): a {@code /status} write keeps the stored labels; validation checks the kind's
 * spec ({@link #validateSpec}, kube's rules in {@link WorkloadValidation}); defaults fill the
 * kind's spec fields ({@link #specDefaults}), then the pod template's ({@link PodSpecDefaults}).
 * Stateless.
 */
abstract class WorkloadStrategy implements RestStrategy {

  @Override
  public final void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    if (spec == null) {
      return;
    }
    specDefaults(spec);
    PodSpecDefaults.template(spec);
  }

  /** kube's {@code SetDefaults_<Kind>} for the fields of {@code spec} other than the pod template. */
  abstract void specDefaults(ObjectNode spec);

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    Fields.keepStoredMetadata(obj, old, "labels");
  }

  /** kube's {@code Validate<Kind>} and {@code ValidateUpdate} of the kind's spec. */
  @Override
  public final void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    validateSpec(obj.path("spec"), old == null ? null : old.path("spec"), errors);
  }

  /**
   * kube's workload {@code WarningsOnCreate}/{@code WarningsOnUpdate}: the pod template's
   * warnings ({@link PodWarnings}), on an update only when the generation moved (the spec
   * changed).
   */
  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    templateWarnings(obj, old, "spec.template", obj.path("spec").path("template"), warn);
  }

  /** A template's warnings under {@code path}, on create or when an update moved the generation. */
  static void templateWarnings(JsonNode obj, JsonNode old, String path, JsonNode template,
      java.util.function.Consumer<String> warn) {
    if (old == null || !old.path("metadata").path("generation").equals(obj.path("metadata").path("generation"))) {
      PodWarnings.of(template, path + ".", warn);
    }
  }

  /**
   * Adds the errors of {@code spec} ({@code oldSpec} the stored one on update, null on create).
   */
  abstract void validateSpec(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors);
}

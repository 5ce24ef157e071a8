package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * What kube's strategies of the apps workloads share (Deployments, ReplicaSets, StatefulSets,
 * DaemonSets): a {@code /status} write keeps the stored labels, and validation checks the
 * replicas (for the kinds that have them), the selector and the pod template
 * ({@link PodSpecValidation#workload}); defaults fill the kind's spec fields
 * ({@link #specDefaults}), then the pod template's ({@link PodSpecDefaults}). Stateless.
 */
abstract class WorkloadStrategy implements RestStrategy {

  private final boolean hasReplicas;

  /** @param hasReplicas whether the kind has {@code spec.replicas} (a DaemonSet has not) */
  WorkloadStrategy(boolean hasReplicas) {
    this.hasReplicas = hasReplicas;
  }

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

  /** kube's {@code Validate<Kind>}, as far as this server checks it. */
  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    PodSpecValidation.workload(obj.path("spec"), hasReplicas, errors);
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.core.PodQosClass;
import java.time.Instant;

/**
 * Pods (core/v1), kube's pod strategies: the pod spec's defaults ({@link PodSpecDefaults}); a
 * new pod is Pending with its QoS class, whatever status it came with; a {@code /status} write
 * keeps the stored {@code ownerReferences}. (A pod's grace period on delete is
 * {@code rest.Deletion}'s.)
 */
final class PodStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    PodSpecDefaults.podSpec(Fields.object(obj, "spec", true));
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.putObject("status").put("phase", "Pending").put("qosClass", PodQosClass.of(obj.path("spec")));
  }

  /** kube's default {@code terminationGracePeriodSeconds}. */
  static final long DEFAULT_GRACE_SECONDS = 30;

  /**
   * kube's pod {@code CheckGracefulDelete}: the request's {@code gracePeriodSeconds}, else
   * {@code spec.terminationGracePeriodSeconds}, else 30; 0 for a pod never bound to a node
   * (nothing runs that needs time to stop) or already Succeeded or Failed.
   */
  @Override
  public long gracePeriodSeconds(ObjectNode current, Long requestedSeconds) {
    long grace = requestedSeconds != null ? requestedSeconds
        : current.path("spec").path("terminationGracePeriodSeconds").asLong(DEFAULT_GRACE_SECONDS);
    if (current.path("spec").path("nodeName").asText("").isEmpty()) {
      return 0;
    }
    String phase = current.path("status").path("phase").asText("");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return 0;
    }
    return Math.max(0, grace);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    Fields.keepStoredMetadata(obj, old, "ownerReferences");
  }

  /** kube's {@code ValidatePodCreate} and {@code ValidatePodUpdate}, as far as this server checks them ({@link PodSpecValidation}). */
  @Override
  public void validate(ObjectNode obj, ObjectNode old, java.util.List<io.listwatch.api.Status.Cause> errors) {
    PodSpecValidation.validate(obj.path("spec"), "spec", errors);
  }
}

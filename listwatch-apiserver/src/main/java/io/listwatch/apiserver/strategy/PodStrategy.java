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

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    Fields.keepStoredMetadata(obj, old, "ownerReferences");
  }
}

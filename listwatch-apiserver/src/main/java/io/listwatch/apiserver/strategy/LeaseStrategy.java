package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * Leases (coordination.k8s.io/v1), kube's {@code ValidateLeaseSpec} (on create and update):
 * {@code leaseDurationSeconds} above 0 and {@code leaseTransitions} not negative, when given.
 * The alpha fields of coordinated leader election ({@code strategy},
 * {@code preferredHolder}), which kube 1.32 drops while its feature gate is off, are kept
 * unchecked. Stateless.
 */
final class LeaseStrategy implements RestStrategy {

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    NumericFields.positive(obj.path("spec").path("leaseDurationSeconds"), "spec.leaseDurationSeconds", errors);
    NumericFields.nonNegative(obj.path("spec").path("leaseTransitions"), "spec.leaseTransitions", errors);
  }
}

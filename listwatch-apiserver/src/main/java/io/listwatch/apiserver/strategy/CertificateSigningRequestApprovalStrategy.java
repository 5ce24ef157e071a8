package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.util.List;

/**
 * kube 1.32's {@code certificatesigningrequests/approval} strategy ({@code kubectl certificate
 * approve|deny} writes through it): the spec and the status as stored but for the conditions,
 * which are the written ones, their times filled in; validated as
 * {@link CertificateSigningRequestConditions} says for approval. Stateless.
 */
final class CertificateSigningRequestApprovalStrategy implements RestStrategy {

  static final String SUBRESOURCE = "approval";

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    JsonNode conditions = obj.path("status").get("conditions");
    CertificateSigningRequestStrategy.keepStored(obj, old, "spec");
    CertificateSigningRequestStrategy.keepStored(obj, old, "status");
    if (conditions != null && !conditions.isNull()) {
      obj.with("status").set("conditions", conditions);
    } else if (obj.path("status") instanceof ObjectNode status) {
      status.remove("conditions");
    }
    CertificateSigningRequestConditions.populateTimes(obj, old);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    CertificateSigningRequestConditions.validateUpdate(obj, old, true, errors);
  }
}

package io.listwatch.apiserver.admission;

import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code CertificateSubjectRestriction} plug-in: a CertificateSigningRequest created for
 * the signer {@code kubernetes.io/kube-apiserver-client} must not ask for the group
 * {@code system:masters} (an {@code O} of its subject), which would make a cluster admin of
 * whoever gets it approved. Refused with 403 Forbidden and kube's message; so is a request whose
 * PEM does not parse as one ({@code failed to parse CSR: ...}). Stateless.
 */
final class CertificateSubjectRestriction implements AdmissionPlugin {

  static final String KUBE_APISERVER_CLIENT = "kubernetes.io/kube-apiserver-client";

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (a.operation() != AdmissionAttributes.Operation.CREATE || !SignerAuthorization.isCsr(a, "")
        || !a.object().path("spec").path("signerName").asText("").equals(KUBE_APISERVER_CLIENT)) {
      return CompletableFuture.completedFuture(null);
    }
    List<String> organizations;
    try {
      organizations = CertificateRequestSubject.organizations(
          Base64.getDecoder().decode(a.object().path("spec").path("request").asText("")));
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(AdmissionErrors.forbidden(a, "failed to parse CSR: " + e.getMessage()));
    }
    if (organizations.contains("system:masters")) {
      return CompletableFuture.failedFuture(AdmissionErrors.forbidden(a,
          "use of " + KUBE_APISERVER_CLIENT + " signer with system:masters group is not allowed"));
    }
    return CompletableFuture.completedFuture(null);
  }
}

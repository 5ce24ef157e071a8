package io.listwatch.apiserver.admission;

import io.listwatch.api.Strconv;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code CertificateApproval} plug-in: an update of a CertificateSigningRequest's
 * {@code /approval} (approving or denying it) needs the writer to be allowed the verb
 * {@code approve} on {@code signers} named by the request's signer (or its domain's {@code /*});
 * the signer is read from the stored request, so a write that also tries to change it is judged
 * by the old one. Refused with 403 Forbidden and kube's message.
 *
 * <p>Thread-safe: the authorizer is set once ({@link WantsAuthorizer}).
 */
final class CertificateApproval implements AdmissionPlugin, WantsAuthorizer {

  private final SignerAuthorization signers = new SignerAuthorization();

  @Override
  public void authorizer(AdmissionAuthorizer authorizer) {
    signers.set(authorizer);
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (a.operation() != AdmissionAttributes.Operation.UPDATE || !SignerAuthorization.isCsr(a, "approval")) {
      return CompletableFuture.completedFuture(null);
    }
    String signerName = a.oldObject().path("spec").path("signerName").asText("");
    if (!signers.allowed(a.user(), "approve", signerName)) {
      return CompletableFuture.failedFuture(AdmissionErrors.forbidden(a,
          "user not permitted to approve requests with signerName " + Strconv.quote(signerName)));
    }
    return CompletableFuture.completedFuture(null);
  }
}

package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Strconv;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code CertificateSigning} plug-in: an update of a CertificateSigningRequest's
 * {@code /status} that changes {@code status.certificate} or {@code status.conditions} (issuing
 * a certificate, or marking the request Failed) needs the writer to be allowed the verb
 * {@code sign} on {@code signers} named by the stored request's signer (or its domain's
 * {@code /*}). Refused with 403 Forbidden and kube's message. The server's own signer writes as
 * {@code system:masters}, which is allowed everything.
 *
 * <p>Thread-safe: the authorizer is set once ({@link WantsAuthorizer}).
 */
final class CertificateSigning implements AdmissionPlugin, WantsAuthorizer {

  private final SignerAuthorization signers = new SignerAuthorization();

  @Override
  public void authorizer(AdmissionAuthorizer authorizer) {
    signers.set(authorizer);
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (a.operation() != AdmissionAttributes.Operation.UPDATE || !SignerAuthorization.isCsr(a, "status")) {
      return CompletableFuture.completedFuture(null);
    }
    var oldStatus = a.oldObject().path("status");
    var status = a.object().path("status");
    if (same(oldStatus.path("certificate"), status.path("certificate"))
        && same(oldStatus.path("conditions"), status.path("conditions"))) {
      return CompletableFuture.completedFuture(null);
    }
    String signerName = a.oldObject().path("spec").path("signerName").asText("");
    if (!signers.allowed(a.user(), "sign", signerName)) {
      return CompletableFuture.failedFuture(AdmissionErrors.forbidden(a,
          "user not permitted to sign requests with signerName " + Strconv.quote(signerName)));
    }
    return CompletableFuture.completedFuture(null);
  }

  /** As kube's semantic equality: absent, null and empty are one value. */
  private static boolean same(JsonNode a, JsonNode b) {
    return Objects.equals(orNull(a), orNull(b));
  }

  private static JsonNode orNull(JsonNode n) {
    return n.isMissingNode() || n.isNull() || n.isContainerNode() && n.isEmpty() ? null : n;
  }
}

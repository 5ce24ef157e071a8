package io.listwatch.apiserver.admission;

import io.listwatch.apiserver.request.UserInfo;

/**
 * kube's {@code IsAuthorizedForSignerName}: whether a user may {@code approve} or {@code sign}
 * requests of a signer, asked as the verb on the synthetic resource {@code signers} of
 * {@code certificates.k8s.io} named by the signer, then (if not) named by the signer's domain
 * and {@code /*} ({@code kubernetes.io/*}), so a role can cover every signer of a domain.
 *
 * <p>Thread-safe: the authorizer is replaced once through a volatile field.
 */
final class SignerAuthorization {

  static final String GROUP = "certificates.k8s.io";
  static final String CSRS = "certificatesigningrequests";

  private volatile AdmissionAuthorizer authorizer = AdmissionAuthorizer.ALLOW_ALL;

  void set(AdmissionAuthorizer authorizer) {
    this.authorizer = java.util.Objects.requireNonNull(authorizer);
  }

  boolean allowed(UserInfo user, String verb, String signerName) {
    AdmissionAuthorizer a = authorizer;
    if (a.allowed(user, verb, GROUP, "signers", signerName)) {
      return true;
    }
    String domain = signerName.split("/", -1)[0];
    return a.allowed(user, verb, GROUP, "signers", domain + "/*");
  }

  /** Whether {@code a} is a write of {@code subresource} of CertificateSigningRequests. */
  static boolean isCsr(AdmissionAttributes a, String subresource) {
    return a.resource().group().equals(GROUP) && a.resource().plural().equals(CSRS)
        && a.subresource().equals(subresource);
  }
}

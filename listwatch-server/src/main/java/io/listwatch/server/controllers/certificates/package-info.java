/**
 * kube-controller-manager's certificates controllers ({@code pkg/controller/certificates}) that
 * the server runs itself: {@link io.listwatch.server.controllers.certificates.CertificateSigningController}
 * issues the certificates of approved CertificateSigningRequests of kube's built-in signers with
 * the server's client CA ({@link io.listwatch.server.controllers.certificates.SignerValidation}
 * checks each request as kube's signer does, {@link io.listwatch.server.controllers.certificates.CertificateSigner}
 * signs it), and {@link io.listwatch.server.controllers.certificates.CertificateSigningRequestCleaner}
 * deletes requests once they are old. {@link io.listwatch.server.controllers.certificates.CertificateRequest}
 * is a PKCS#10 request as Go's {@code x509} reads it.
 */
package io.listwatch.server.controllers.certificates;

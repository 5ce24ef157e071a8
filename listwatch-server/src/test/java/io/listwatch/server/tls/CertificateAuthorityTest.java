package io.listwatch.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CertificateAuthorityTest {

  private static final CertificateAuthority CA = CertificateAuthority.create("test-ca");

  @Test
  void servingCertificate_namesEveryHostAndAddress_asDnsOrIpSans() throws Exception {
    X509Certificate cert = CA.issueServing("apiserver", List.of("localhost", "127.0.0.1", "::1", "api.example.com"))
        .certificate();

    assertThat(cert.getSubjectAlternativeNames()).containsExactlyInAnyOrder(
        List.of(2, "localhost"), List.of(7, "127.0.0.1"), List.of(7, "0:0:0:0:0:0:0:1"), List.of(2, "api.example.com"));
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1"); // serverAuth
    assertThat(cert.getBasicConstraints()).isEqualTo(-1);
    assertValidUnder(cert, CA.certificate());
  }

  @Test
  void clientCertificate_hasTheUserAsCn_andEachGroupAsO() throws Exception {
    X509Certificate cert = CA.issueClient("jane", List.of("system:masters", "dev")).certificate();

    assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=jane,O=dev,O=system:masters");
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2"); // clientAuth
    assertValidUnder(cert, CA.certificate());
  }

  @Test
  void certificateFromAnotherCa_doesNotValidate() {
    X509Certificate stranger = CertificateAuthority.create("other").issueClient("jane", List.of()).certificate();

    assertThatThrownBy(() -> assertValidUnder(stranger, CA.certificate()))
        .isInstanceOf(java.security.cert.CertPathValidatorException.class);
  }

  @Test
  void pemRoundTrip_keepsCertificateAndKey() {
    CertifiedKey issued = CA.issueClient("jane", List.of("dev"));

    List<X509Certificate> certs = Pem.certificates(issued.certificatePem(), "test");
    assertThat(certs).containsExactly(issued.certificate());
    // the same key (its encoding now carries the public key, as OpenSSL's does)
    assertThat(((java.security.interfaces.ECPrivateKey) Pem.privateKey(issued.privateKeyPem(), "test")).getS())
        .isEqualTo(((java.security.interfaces.ECPrivateKey) issued.privateKey()).getS());
    // SEC1, as kube's tools write EC keys: fabric8 6.x and 7.5 misread a PKCS#8 EC key as RSA
    assertThat(issued.privateKeyPem()).startsWith("-----BEGIN EC PRIVATE KEY-----");
  }

  @Test
  void existingCa_mustBeACaCertificate() {
    CertifiedKey leaf = CA.issueClient("jane", List.of());

    assertThatThrownBy(() -> CertificateAuthority.of(leaf)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a CA certificate");
  }

  private static void assertValidUnder(X509Certificate cert, X509Certificate ca) throws Exception {
    PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
    params.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX")
        .validate(CertificateFactory.getInstance("X.509").generateCertPath(List.of(cert)), params);
  }
}

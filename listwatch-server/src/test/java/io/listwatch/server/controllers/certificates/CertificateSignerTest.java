package io.listwatch.server.controllers.certificates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.Test;

/** kube's signer_test.go (TestSigner, Test_signer_duration) and its policy's validity rules. */
class CertificateSignerTest {

  private static final CertifiedKey CA = CertificateAuthority.create("test-ca").certifiedKey();
  private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

  @Test
  void sign_asKubesTestSigner() throws Exception {
    CertificateSigner signer = new CertificateSigner(CA, Duration.ofHours(1));
    CertificateRequest r = TestRequests.parsed("system:node:k-a-node-s36b", List.of("system:nodes"),
        List.of("DNS:node.example", "IP:10.0.0.7"));
    // requesting a duration longer than the signer's is ignored
    X509Certificate c = signer.sign(r, List.of("signing", "key encipherment", "server auth", "client auth"),
        signer.duration(3 * 3600L), NOW);

    assertThat(c.getSubjectX500Principal().getName()).isEqualTo("CN=system:node:k-a-node-s36b,O=system:nodes");
    assertThat(c.getIssuerX500Principal()).isEqualTo(CA.certificate().getSubjectX500Principal());
    assertThat(c.getNotBefore().toInstant()).isEqualTo(NOW.minus(Duration.ofMinutes(5)));
    assertThat(c.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofHours(1)));
    boolean[] keyUsage = c.getKeyUsage();
    assertThat(keyUsage[0]).as("digitalSignature").isTrue();
    assertThat(keyUsage[2]).as("keyEncipherment").isTrue();
    assertThat(keyUsage[1] || keyUsage[3] || keyUsage[4] || keyUsage[5] || keyUsage[6]).isFalse();
    assertThat(c.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
    assertThat(c.getBasicConstraints()).isEqualTo(-1);
    assertThat(c.getSubjectAlternativeNames()).containsExactly(List.of(2, "node.example"), List.of(7, "10.0.0.7"));
    assertThat(c.getPublicKey().getEncoded()).isEqualTo(r.request().getSubjectPublicKeyInfo().getEncoded());
    c.verify(CA.certificate().getPublicKey());
  }

  @Test
  void validity_backdatesTheEndOfLongCertificates_andEndsWithTheCa() {
    CertificateSigner signer = new CertificateSigner(CA, CertificateSigner.DEFAULT_MAX_TTL);
    CertificateRequest r = TestRequests.parsed("alice", List.of("dev"), List.of());
    X509Certificate year = signer.sign(r, List.of("client auth"), signer.duration(null), NOW);
    assertThat(year.getNotAfter().toInstant()).isEqualTo(NOW.minus(Duration.ofMinutes(5)).plus(Duration.ofDays(365)));

    Instant caEnd = CA.certificate().getNotAfter().toInstant();
    X509Certificate capped = signer.sign(r, List.of("client auth"), signer.duration(86400L), caEnd.minusSeconds(3600));
    assertThat(capped.getNotAfter().toInstant()).isEqualTo(caEnd);
    assertThatThrownBy(() -> signer.sign(r, List.of("client auth"), Duration.ofHours(1), caEnd.plusSeconds(600)))
        .hasMessageStartingWith("the signer has expired: NotAfter=");
    assertThatThrownBy(() -> signer.sign(r, List.of("client auth"), Duration.ofHours(1), caEnd.plusSeconds(1)))
        .hasMessageStartingWith("refusing to sign a certificate that expired in the past: NotAfter=");
  }

  @Test
  void duration_asKubesTable() {
    CertificateSigner signer = new CertificateSigner(CA, Duration.ofHours(1));
    Object[][] cases = {
        {30 * 60L, Duration.ofMinutes(30)}, // shorter than the maximum
        {3 * 3600L, Duration.ofHours(1)}, // longer: the maximum
        {-60L, Duration.ofMinutes(10)}, // negative: the minimum
        {599L, Duration.ofMinutes(10)},
        {600L, Duration.ofMinutes(10)},
        {3600L, Duration.ofHours(1)},
        {null, Duration.ofHours(1)}, // none: the maximum
    };
    for (Object[] c : cases) {
      assertThat(signer.duration((Long) c[0])).as(String.valueOf(c[0])).isEqualTo(c[1]);
    }
  }

  @Test
  void sign_refusesARequestWhoseSignatureDoesNotVerify() throws Exception {
    KeyPair key = TestRequests.keyPair();
    KeyPair other = TestRequests.keyPair();
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      w.writeObject(new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=mallory"), key.getPublic())
          .build(new JcaContentSignerBuilder("SHA256withECDSA").build(other.getPrivate())));
    }
    CertificateRequest forged = CertificateRequest.parse(out.toString().getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> new CertificateSigner(CA, Duration.ofHours(1)).sign(forged, List.of("client auth"),
        Duration.ofHours(1), NOW))
        .hasMessage("unable to verify certificate request signature: x509: ECDSA verification failure");
  }
}

package io.listwatch.client.internal;

import static io.listwatch.client.internal.TestFiles.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

class PemTest {

  @Test
  void certificates_readsEveryCertificateOfABundle() {
    List<X509Certificate> certs = Pem.certificates(resource("tls/ca.crt") + resource("tls/other-ca.crt"), "ca");
    assertThat(certs).extracting(c -> c.getSubjectX500Principal().getName())
        .containsExactly("CN=listwatch-test-ca", "CN=other-ca");
  }

  @Test
  void privateKey_readsPkcs8AndPkcs1Rsa_asTheSameKey() {
    PrivateKey pkcs8 = Pem.privateKey(resource("tls/client.key"), "key");
    PrivateKey pkcs1 = Pem.privateKey(resource("tls/client-pkcs1.key"), "key");
    assertThat(pkcs8.getAlgorithm()).isEqualTo("RSA");
    assertThat(pkcs1.getEncoded()).isEqualTo(pkcs8.getEncoded());
    assertMatchesCertificate(pkcs1, resource("tls/client.crt"), "SHA256withRSA");
  }

  @Test
  void privateKey_readsSec1EcKey_afterAnEcParametersBlock() {
    PrivateKey ec = Pem.privateKey(resource("tls/client-ec.key"), "key");
    assertThat(ec.getAlgorithm()).isEqualTo("EC");
    assertMatchesCertificate(ec, resource("tls/client-ec.crt"), "SHA256withECDSA");
  }

  @Test
  void badPem_isAnIllegalArgumentNamingWhatWasRead() {
    assertThatThrownBy(() -> Pem.certificates("not a pem", "certificate-authority"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("certificate-authority");
    assertThatThrownBy(() -> Pem.privateKey(resource("tls/ca.crt"), "client-key"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client-key");
    assertThatThrownBy(() -> Pem.privateKey("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----", "client-key"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client-key");
  }

  private static void assertMatchesCertificate(PrivateKey key, String certPem, String algorithm) {
    try {
      X509Certificate cert = Pem.certificates(certPem, "cert").get(0);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(new byte[] {1, 2, 3});
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(cert.getPublicKey());
      verifier.update(new byte[] {1, 2, 3});
      assertThat(verifier.verify(signature)).as("the key belongs to the certificate").isTrue();
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Found by fuzzing (KubeConfigFuzzTest#pem): an EC key whose curve OID claimed 2 GiB was
   * copied out to that length, and a kubeconfig's client-key-data ran the client out of memory.
   */
  @Test
  void ecKey_whoseCurveLengthSaysMoreThanThereIs_isRefused_notCopiedOutToThatLength() {
    byte[] der = {0x30, 0x0c, 0x02, 0x01, 0x01, 0x04, 0x01, (byte) 0xaa, (byte) 0xa0, 0x06,
        0x06, (byte) 0x84, 0x7f, 0x00, 0x00, 0x00};
    String pem = "-----BEGIN EC PRIVATE KEY-----\n" + java.util.Base64.getEncoder().encodeToString(der)
        + "\n-----END EC PRIVATE KEY-----\n";

    assertThatThrownBy(() -> Pem.privateKey(pem, "client-key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client-key: truncated EC private key");
  }
}

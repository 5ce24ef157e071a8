package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Certificates and Certificate Signing Requests" page's "Normal user" walk-through with the
 * real kubectl over TLS: a private key and a request for {@code myuser}, the
 * CertificateSigningRequest created, {@code kubectl certificate approve}, the certificate the
 * server's signer issues read from {@code status.certificate}, then that certificate and key as
 * kubectl's credentials: {@code kubectl auth whoami} is {@code myuser} in the request's group;
 * and a request for {@code system:masters} is refused at creation.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
class KubectlCertificateSigningTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  static Path workDir;

  private static Kubectl kubectl;

  @BeforeAll
  static void setUp(ApiServer server) throws Exception {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    // a kubeconfig of our own, to which "kubectl config" adds the new user
    Path kubeconfig = Files.copy(server.kubeconfig(), workDir.resolve("config"));
    kubectl = Kubectl.withKubeconfig(kubeconfig, workDir);
  }

  /** As {@code openssl genrsa 2048} then {@code openssl req -new -subj /CN=<cn>/O=<group>}: the key's and the request's PEM. */
  private static String[] keyAndRequest(String subject) throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    KeyPair keys = g.generateKeyPair();
    StringWriter key = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(key)) {
      w.writeObject(keys.getPrivate());
    }
    StringWriter request = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(request)) {
      w.writeObject(new JcaPKCS10CertificationRequestBuilder(new X500Name(subject), keys.getPublic())
          .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
    }
    return new String[] {key.toString(), request.toString()};
  }

  private static String csr(String name, String requestPem) {
    return """
        apiVersion: certificates.k8s.io/v1
        kind: CertificateSigningRequest
        metadata:
          name: %s
        spec:
          request: %s
          signerName: kubernetes.io/kube-apiserver-client
          expirationSeconds: 86400  # one day
          usages:
          - client auth
        """.formatted(name, Base64.getEncoder().encodeToString(requestPem.getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void normalUser_approvedCertificateAuthenticatesAsTheRequestsSubject() throws Exception {
    String[] keyAndRequest = keyAndRequest("O=dev,CN=myuser");
    Path key = kubectl.file("myuser.key", keyAndRequest[0]);
    kubectl.ok("create", "-f", kubectl.file("myuser-csr.yaml", csr("myuser", keyAndRequest[1])).toString());

    Kubectl.Result approved = kubectl.ok("certificate", "approve", "myuser");
    assertThat(approved.lines()).containsExactly("certificatesigningrequest.certificates.k8s.io/myuser approved");

    String certificate = Await.until("the signer issues myuser's certificate", WAIT,
        () -> kubectl.ok("get", "csr", "myuser", "-o", "jsonpath={.status.certificate}").stdout().trim(),
        s -> !s.isEmpty());
    Path crt = kubectl.file("myuser.crt", new String(Base64.getDecoder().decode(certificate), StandardCharsets.US_ASCII));
    assertThat(Files.readString(crt)).startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(kubectl.ok("get", "csr", "myuser").lines().get(1)).contains("Approved,Issued");

    kubectl.ok("config", "set-credentials", "myuser", "--client-key=" + key, "--client-certificate=" + crt,
        "--embed-certs=true");
    kubectl.ok("config", "set-context", "myuser", "--cluster=listwatch", "--user=myuser");
    Kubectl.Result whoami = kubectl.ok("--context", "myuser", "auth", "whoami");
    assertThat(whoami.stdout()).containsPattern("Username\\s+myuser");
    assertThat(whoami.stdout()).containsPattern("Groups\\s+\\[dev system:authenticated\\]");
  }

  @Test
  void requestForSystemMasters_isRefused() throws Exception {
    String[] keyAndRequest = keyAndRequest("O=system:masters,CN=mallory");
    Kubectl.Result refused = kubectl.run("create", "-f",
        kubectl.file("mallory-csr.yaml", csr("mallory", keyAndRequest[1])).toString());
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr()).contains("Error from server (Forbidden): error when creating")
        .contains("certificatesigningrequests.certificates.k8s.io \"mallory\" is forbidden: use of "
            + "kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed");
  }
}

package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import io.listwatch.server.tls.TlsConfig;
import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --tls-cert-file}, {@code --tls-private-key-file} and {@code --client-ca-file}: the
 * server serves the operator's certificate and trusts only the operator's client CA.
 */
@EndToEnd
class OperatorCertificatesTest {

  private static final Duration WAIT = KubeHttp.WAIT;

  @Test
  void operatorCertificates_areServed_andOnlyTheirClientCaIsTrusted(@TempDir Path dataDir, @TempDir Path files) {
    CertificateAuthority theirs = CertificateAuthority.create("operator-ca");
    theirs.certifiedKey().write(files.resolve("ca.crt"), files.resolve("ca.key"));
    CertifiedKey serving = theirs.issueServing("api", List.of("127.0.0.1"));
    // the full chain, as operators usually hand it over: the leaf, then their CA
    new CertifiedKey(List.of(serving.certificate(), theirs.certificate()), serving.privateKey())
        .write(files.resolve("tls.crt"), files.resolve("tls.key"));
    theirs.issueClient("jane", List.of("dev")).write(files.resolve("jane.crt"), files.resolve("jane.key"));
    CertificateAuthority.create("stranger-ca").issueClient("jane", List.of("dev"))
        .write(files.resolve("stranger.crt"), files.resolve("stranger.key"));

    TlsConfig tls = TlsConfig.DEFAULTS.withServingCertificate(files.resolve("tls.crt"), files.resolve("tls.key"))
        .withClientCa(files.resolve("ca.crt"));
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).tls(tls).build().start()) {
      // verified against the operator's CA (no -k): the server presents their certificate; /api is
      // for authenticated users only (system:discovery), so a 200 shows jane's certificate was accepted
      try (Curl curl = Curl.start(files, "-s", "--cacert", "ca.crt", "--cert", "jane.crt", "--key", "jane.key",
          "-o", "/dev/null", "-w", "%{http_code}\\n", server.url() + "/api")) {
        assertThat(curl.awaitStdout(l -> !l.isBlank(), "with the status code", WAIT)).isEqualTo("200");
      }
      try (Curl curl = Curl.start(files, "-s", "--cacert", "ca.crt", "--cert", "stranger.crt", "--key",
          "stranger.key", "-o", "body.json", server.url() + "/api/v1/namespaces")) {
        assertThat(curl.awaitExit(WAIT)).as("curl's exit code with a certificate of another CA").isNotZero();
        assertThat(files.resolve("body.json")).doesNotExist();
      }
      assertThat(server.caCertificate()).isEqualTo(theirs.certificate());
      assertThatThrownBy(server::kubeconfig).hasMessageContaining("operator's CA");
      assertThat(dataDir.resolve("kubeconfig.yaml")).doesNotExist();
    }
  }
}

package io.listwatch.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsMaterialTest {

  @TempDir
  Path dataDir;

  @Test
  void firstStart_createsTheFiles_andLaterStartsReuseThem() throws Exception {
    TlsMaterial first = TlsMaterial.load(dataDir, TlsConfig.DEFAULTS, List.of());
    Path tls = dataDir.resolve("tls");
    assertThat(tls).isDirectoryContaining(p -> p.getFileName().toString().equals("ca.crt"));
    for (String f : List.of("ca.crt", "ca.key", "server.crt", "server.key", "admin.crt", "admin.key")) {
      assertThat(tls.resolve(f)).exists();
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("ca.key"))))
        .isEqualTo("rw-------");

    TlsMaterial second = TlsMaterial.load(dataDir, TlsConfig.DEFAULTS, List.of());

    assertThat(second.servingCa()).isEqualTo(first.servingCa());
    assertThat(second.serving().certificate()).isEqualTo(first.serving().certificate());
    assertThat(second.admin().orElseThrow().certificate()).isEqualTo(first.admin().orElseThrow().certificate());
    assertThat(first.admin().orElseThrow().certificate().getSubjectX500Principal().getName())
        .isEqualTo("CN=admin,O=system:masters");
  }

  @Test
  void newSubjectAltName_issuesTheServingCertificateAgain_underTheSameCa() throws Exception {
    TlsMaterial first = TlsMaterial.load(dataDir, TlsConfig.DEFAULTS, List.of());

    TlsMaterial second = TlsMaterial.load(dataDir, TlsConfig.DEFAULTS.withSubjectAltNames(List.of("api.example.com")),
        List.of("10.1.2.3"));

    X509Certificate serving = second.serving().certificate();
    assertThat(serving).isNotEqualTo(first.serving().certificate());
    assertThat(serving.getSubjectAlternativeNames()).contains(List.of(2, "api.example.com"), List.of(7, "10.1.2.3"),
        List.of(2, "localhost"), List.of(7, "127.0.0.1"));
    assertThat(second.servingCa()).isEqualTo(first.servingCa());
    assertThat(second.admin().orElseThrow().certificate()).isEqualTo(first.admin().orElseThrow().certificate());
  }

  @Test
  void operatorFiles_areServedAndTrusted_andNoAdminIsIssued(@TempDir Path operator) {
    CertificateAuthority theirs = CertificateAuthority.create("operator-ca");
    CertifiedKey serving = theirs.issueServing("api", List.of("api.example.com"));
    serving.write(operator.resolve("tls.crt"), operator.resolve("tls.key"));
    theirs.certifiedKey().write(operator.resolve("ca.crt"), operator.resolve("ca.key"));

    TlsMaterial m = TlsMaterial.load(dataDir, TlsConfig.DEFAULTS
        .withServingCertificate(operator.resolve("tls.crt"), operator.resolve("tls.key"))
        .withClientCa(operator.resolve("ca.crt")), List.of());

    assertThat(m.serving().certificate()).isEqualTo(serving.certificate());
    assertThat(m.clientCas()).containsExactly(theirs.certificate());
    assertThat(m.clientCa()).isEmpty();
    assertThat(m.admin()).isEmpty();
    assertThat(dataDir.resolve("tls/ca.key")).doesNotExist();
  }

  @Test
  void kubeconfig_isWhatKubectlReads() throws Exception {
    TlsMaterial m = TlsMaterial.load(dataDir, TlsConfig.DEFAULTS, List.of());
    Path file = dataDir.resolve("kubeconfig.yaml");

    Kubeconfig.write(file, "https://127.0.0.1:6443", m.servingCa(), "admin", m.admin().orElseThrow());

    JsonNode k = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
    assertThat(k.path("current-context").asText()).isEqualTo("listwatch");
    JsonNode cluster = k.path("clusters").get(0);
    assertThat(cluster.path("cluster").path("server").asText()).isEqualTo("https://127.0.0.1:6443");
    assertThat(decode(cluster.path("cluster").path("certificate-authority-data")))
        .isEqualTo(Pem.encode(List.of(m.servingCa())));
    JsonNode context = k.path("contexts").get(0);
    assertThat(context.path("context").path("cluster").asText()).isEqualTo(cluster.path("name").asText());
    assertThat(context.path("context").path("user").asText()).isEqualTo("admin");
    JsonNode user = k.path("users").get(0);
    assertThat(user.path("name").asText()).isEqualTo("admin");
    assertThat(decode(user.path("user").path("client-certificate-data"))).isEqualTo(m.admin().get().certificatePem());
    assertThat(decode(user.path("user").path("client-key-data"))).isEqualTo(m.admin().get().privateKeyPem());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  private static String decode(JsonNode base64) {
    return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.US_ASCII);
  }
}

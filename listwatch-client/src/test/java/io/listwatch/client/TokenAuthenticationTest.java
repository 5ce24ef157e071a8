package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.server.ApiServer;
import io.listwatch.server.authn.AuthenticationConfig;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Decision;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client authenticating with a bearer token from a kubeconfig ({@code token} and
 * {@code tokenFile}) against the server's TLS listener, where anonymous requests are refused.
 */
@Timeout(60)
class TokenAuthenticationTest {

  @TempDir
  static Path dir;
  private static ApiServer server;

  @BeforeAll
  static void start() throws Exception {
    Path tokens = Files.writeString(dir.resolve("tokens.csv"), "alice-token,alice,1001\n");
    server = ApiServer.builder().tls()
        .authentication(AuthenticationConfig.builder().tokenAuthFile(tokens).build())
        .authorizer(a -> a.user().name().equals(UserInfo.ANONYMOUS_NAME) ? Decision.noOpinion("")
            : Decision.allow(""))
        .build().start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** A kubeconfig for the TLS server whose user has {@code userYaml} (e.g. {@code token: x}). */
  private static Path kubeconfig(String name, String userYaml) throws Exception {
    String ca = "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(server.caCertificate().getEncoded())
        + "\n-----END CERTIFICATE-----\n";
    return Files.writeString(dir.resolve(name), """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: u
          user:
            %s
        contexts:
        - name: c
          context: {cluster: c, user: u}
        current-context: c
        """.formatted(server.url(), Base64.getEncoder().encodeToString(ca.getBytes(StandardCharsets.US_ASCII)),
        userYaml));
  }

  private static List<DynamicObject> namespaces(Path kubeconfig) {
    try (KubeClient client = KubeClient.create(Config.fromKubeconfig(kubeconfig, null))) {
      return client.dynamic(ResourceType.NAMESPACES).list("", ListOptions.parse(Map.of())).items();
    }
  }

  @Test
  void tokenInKubeconfig_authenticates() throws Exception {
    assertThat(namespaces(kubeconfig("token.yaml", "token: alice-token"))).isNotEmpty();
  }

  @Test
  void serviceAccountTokenInATokenFile_authenticates() throws Exception {
    // a token the server issued (TokenRequest) for the default service account, as a pod mounts it
    String token = requestToken();
    Path file = Files.writeString(dir.resolve("sa-token"), token + "\n");

    assertThat(namespaces(kubeconfig("tokenfile.yaml", "tokenFile: " + file))).isNotEmpty();
  }

  @Test
  void withoutAToken_orWithAWrongOne_theServerAnswers401() throws Exception {
    Path none = kubeconfig("none.yaml", "{}");
    Path wrong = kubeconfig("wrong.yaml", "token: nope");

    for (Path kubeconfig : List.of(none, wrong)) {
      assertThatThrownBy(() -> namespaces(kubeconfig))
          .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(401));
    }
  }

  /** POST serviceaccounts/default/token as alice, over HTTPS, and returns status.token. */
  private static String requestToken() throws Exception {
    var trust = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry("ca", server.caCertificate());
    var tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    var ssl = javax.net.ssl.SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    try (var http = java.net.http.HttpClient.newBuilder().sslContext(ssl).build()) {
      var r = http.send(java.net.http.HttpRequest.newBuilder(
              java.net.URI.create(server.url() + "/api/v1/namespaces/default/serviceaccounts/default/token"))
          .header("Authorization", "Bearer alice-token").header("Content-Type", "application/json")
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body()).at("/status/token").asText();
    }
  }
}

package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jwt.SignedJWT;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl's authentication commands against the server's plain listener (which acts as the
 * cluster admin): {@code create token}, {@code auth whoami}.
 */
@EndToEnd
class KubectlAuthTest {

  @TempDir
  static Path workDir;
  private static ApiServer server;
  private static Kubectl kubectl;

  @BeforeAll
  static void setUp() {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    server = ApiServer.builder().build().start();
    kubectl = Kubectl.forServer(server.url(), workDir);
  }

  @AfterAll
  static void tearDown() {
    if (server != null) {
      server.close();
    }
  }

  /** Creates a service account with {@code kubectl create -f} (JSON on the wire). */
  private static void createServiceAccount(String name) {
    kubectl.ok("create", "-n", "default", "-f", kubectl.file(name + ".yaml", """
        apiVersion: v1
        kind: ServiceAccount
        metadata:
          name: %s
        """.formatted(name)).toString());
  }

  @Test
  void createToken_forTheDefaultServiceAccount_works() throws Exception {
    Kubectl.Result r = kubectl.ok("create", "token", "default", "-n", "default");

    assertThat(SignedJWT.parse(r.stdout().strip()).getJWTClaimsSet().getSubject())
        .isEqualTo("system:serviceaccount:default:default");
  }

  @Test
  void createToken_printsAServiceAccountTokenWithTheAskedDuration() throws Exception {
    createServiceAccount("deployer");

    Kubectl.Result r = kubectl.ok("create", "token", "deployer", "-n", "default", "--duration", "20m",
        "--audience", "vault");

    var claims = SignedJWT.parse(r.stdout().strip()).getJWTClaimsSet();
    assertThat(claims.getSubject()).isEqualTo("system:serviceaccount:default:deployer");
    assertThat(claims.getAudience()).containsExactly("vault");
    assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
        .isEqualTo(Duration.ofMinutes(20));
  }

  @Test
  void createToken_forAMissingServiceAccount_failsWithNotFound() {
    Kubectl.Result r = kubectl.run("create", "token", "ghost", "-n", "default");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("serviceaccounts \"ghost\" not found");
  }

  @Test
  void createToken_tooShort_failsWithKubesMessage() {
    createServiceAccount("brief");

    Kubectl.Result r = kubectl.run("create", "token", "brief", "-n", "default", "--duration", "5m");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("may not specify a duration less than 10 minutes");
  }

  @Test
  void createToken_outputJson_isTheTokenRequest() throws Exception {
    createServiceAccount("jsonout");

    JsonNode tr = new ObjectMapper().readTree(kubectl.ok("create", "token", "jsonout", "-n", "default",
        "-o", "json").stdout());

    assertThat(tr.path("kind").asText()).isEqualTo("TokenRequest");
    assertThat(Instant.parse(tr.at("/status/expirationTimestamp").asText())).isAfter(Instant.now().plusSeconds(3000));
  }

  @Test
  void authWhoami_onThePlainListener_printsTheUnsecuredAdmin() {
    Kubectl.Result r = kubectl.ok("auth", "whoami");

    assertThat(r.stdout()).contains("system:unsecured").contains("[system:masters system:authenticated]");
  }
}

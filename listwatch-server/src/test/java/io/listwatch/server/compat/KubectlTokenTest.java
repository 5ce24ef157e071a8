package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.authn.AuthenticationConfig;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl with bearer tokens over TLS: a static token user from {@code --token-auth-file}, a
 * service-account token from {@code kubectl create token}, revoked by deleting its account, and
 * impersonation with {@code --as}/{@code --as-group}. The authorizer lets any authenticated user
 * read and write, and only alice impersonate.
 */
@EndToEnd
class KubectlTokenTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  static Path workDir;
  private static ApiServer server;
  private static Kubectl kubectl;

  /** Everyone but anonymous may do anything; only alice may impersonate. */
  private static final Authorizer AUTHORIZER = a -> {
    if (a.user().name().equals(UserInfo.ANONYMOUS_NAME)) {
      return Decision.noOpinion("");
    }
    if (a.verb().equals("impersonate")) {
      return a.user().name().equals("alice") ? Decision.allow("") : Decision.noOpinion("");
    }
    return Decision.allow("");
  };

  @BeforeAll
  static void setUp() throws Exception {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    Path tokens = Files.writeString(workDir.resolve("tokens.csv"), """
        alice-token,alice,1001,"dev,ops"
        carol-token,carol,1003
        """);
    server = ApiServer.builder().tls()
        .authentication(AuthenticationConfig.builder().tokenAuthFile(tokens).build())
        .authorizer(AUTHORIZER)
        .build().start();
    String ca = "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(server.caCertificate().getEncoded())
        + "\n-----END CERTIFICATE-----\n";
    kubectl = Kubectl.withKubeconfig("""
        apiVersion: v1
        kind: Config
        clusters:
        - name: listwatch
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: alice
          user:
            token: alice-token
        contexts:
        - name: listwatch
          context:
            cluster: listwatch
            user: alice
        current-context: listwatch
        """.formatted(server.url(),
        Base64.getEncoder().encodeToString(ca.getBytes(StandardCharsets.US_ASCII))), workDir);
  }

  @AfterAll
  static void tearDown() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void staticTokenUser_readsPods_andWhoamiPrintsItsUserAndGroups() {
    assertThat(kubectl.ok("get", "pods", "-n", "default").stderr()).contains("No resources found");

    Kubectl.Result whoami = kubectl.ok("auth", "whoami");

    assertThat(whoami.stdout()).containsPattern("Username\\s+alice");
    assertThat(whoami.stdout()).containsPattern("UID\\s+1001");
    assertThat(whoami.stdout()).containsPattern("Groups\\s+\\[dev ops system:authenticated\\]");
  }

  @Test
  void unknownToken_isRefusedWith401() {
    Kubectl.Result r = kubectl.run("--token", "forged", "get", "pods", "-n", "default");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("You must be logged in to the server (Unauthorized)");
  }

  @Test
  void createdServiceAccountToken_authenticates() {
    String token = kubectl.ok("create", "token", "default", "-n", "default").stdout().strip();

    Kubectl.Result whoami = kubectl.ok("--token", token, "auth", "whoami");

    assertThat(whoami.stdout()).containsPattern("Username\\s+system:serviceaccount:default:default");
    assertThat(whoami.stdout()).containsPattern(
        "Groups\\s+\\[system:serviceaccounts system:serviceaccounts:default system:authenticated\\]");
    assertThat(whoami.stdout()).containsPattern("Extra: authentication.kubernetes.io/credential-id\\s+\\[JTI=");
    kubectl.ok("--token", token, "get", "pods", "-n", "default");
  }

  @Test
  void deletingTheServiceAccount_revokesItsToken() {
    kubectl.ok("create", "-n", "default", "-f", kubectl.file("ci.yaml", """
        apiVersion: v1
        kind: ServiceAccount
        metadata:
          name: ci
        """).toString());
    String token = kubectl.ok("create", "token", "ci", "-n", "default").stdout().strip();
    kubectl.ok("--token", token, "get", "pods", "-n", "default");

    kubectl.ok("delete", "serviceaccount", "ci", "-n", "default");

    // the token is refused as soon as the watch cache has seen the deletion
    Kubectl.Result r = Await.until("the token is refused", WAIT,
        () -> kubectl.run("--token", token, "get", "pods", "-n", "default"), result -> result.exitCode() != 0);
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("You must be logged in to the server (Unauthorized)");
  }

  @Test
  void impersonation_byAnAllowedUser_actsAsTheImpersonatedUserAndGroups() {
    kubectl.ok("--as", "bob", "--as-group", "g", "get", "pods", "-n", "default");

    Kubectl.Result whoami = kubectl.ok("--as", "bob", "--as-group", "g", "auth", "whoami");

    assertThat(whoami.stdout()).containsPattern("Username\\s+bob");
    assertThat(whoami.stdout()).containsPattern("Groups\\s+\\[g system:authenticated\\]");
  }

  @Test
  void impersonation_byAUserWithoutTheRight_isForbiddenWithKubesMessage() {
    // discovery cached by an earlier command, as on a user's machine (client-go's discovery reports an
    // uncached 403 as "unknown", whatever the Status says)
    kubectl.ok("get", "pods", "-n", "default");

    Kubectl.Result r = kubectl.run("--token", "carol-token", "--as", "bob", "get", "pods", "-n", "default");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("Error from server (Forbidden): users \"bob\" is forbidden: User \"carol\" "
        + "cannot impersonate resource \"users\" in API group \"\" at the cluster scope");
  }
}

package io.listwatch.server.authn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.apiserver.request.UserInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.Http;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bearer tokens and impersonation on the TLS listener, as raw HTTP/1.1 and HTTP/2 requests see
 * them: kube's 401 and 403 Status bodies, and the user a request acts as.
 */
class TokenAuthenticationTlsTest {

  /** How long the server may take to see a service account replaced. */
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir
  static Path dir;
  static ApiServer server;
  static Http http1;
  static Http http2;

  /** Anonymous may read /version; everyone else may do anything; only alice may impersonate. */
  static final Authorizer AUTHORIZER = a -> {
    if (a.user().name().equals(UserInfo.ANONYMOUS_NAME)) {
      return a.path().equals("/version") ? Decision.allow("") : Decision.noOpinion("");
    }
    if (a.verb().equals("impersonate")) {
      return a.user().name().equals("alice") ? Decision.allow("") : Decision.noOpinion("");
    }
    return Decision.allow("");
  };

  @BeforeAll
  static void start() throws Exception {
    Path tokens = Files.writeString(dir.resolve("tokens.csv"), "alice-token,alice,1001,dev\ncarol-token,carol,1003\n");
    server = ApiServer.builder().tls()
        .authentication(AuthenticationConfig.builder().tokenAuthFile(tokens).build())
        .authorizer(AUTHORIZER)
        .build().start();
    SSLContext ssl = server.trustingSslContext();
    http1 = Http.over(server.url(), HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Http.TIMEOUT).build());
    http2 = Http.over(server.url(), HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_2)
        .connectTimeout(Http.TIMEOUT).build());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The response's body as JSON; fails the test if it is not JSON. */
  private static JsonNode json(Http.Response r) {
    try {
      return JSON.readTree(r.body());
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON (HTTP " + r.code() + "): " + r.body(), e);
    }
  }

  private static String whoami(Http http, String... headers) {
    Http.Response r = http.post("/apis/authentication.k8s.io/v1/selfsubjectreviews", "{}", headers);
    assertThat(r.code()).as(r.body()).isEqualTo(201);
    return json(r).at("/status/userInfo").toString();
  }

  @Test
  void staticToken_isTheUser_overHttp1AndHttp2() {
    for (Http http : new Http[] {http1, http2}) {
      assertThat(whoami(http, "Authorization", "Bearer alice-token"))
          .isEqualTo("{\"username\":\"alice\",\"uid\":\"1001\",\"groups\":[\"dev\",\"system:authenticated\"]}");
    }
  }

  @Test
  void badToken_is401WithKubesStatus_evenWhereAnonymousIsAllowed() {
    for (Http http : new Http[] {http1, http2}) {
      Http.Response r = http.get("/version", "Authorization", "Bearer nope");

      assertThat(r.code()).isEqualTo(401);
      assertThat(json(r).toString()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
          + "\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}");
    }
    assertThat(http1.get("/version").code()).isEqualTo(200); // anonymous, no credentials
  }

  @Test
  void serviceAccountToken_fromTokenRequest_authenticatesUntilTheAccountIsRecreated() {
    String admin = "alice-token";
    assertThat(http1.post("/api/v1/namespaces/default/serviceaccounts",
        "{\"metadata\":{\"name\":\"robot\"}}", "Authorization", "Bearer " + admin).code()).isEqualTo(201);
    Http.Response tr = http1.post("/api/v1/namespaces/default/serviceaccounts/robot/token", "{}",
        "Authorization", "Bearer " + admin);
    assertThat(tr.code()).as(tr.body()).isEqualTo(201);
    String token = json(tr).at("/status/token").asText();

    assertThat(whoami(http2, "Authorization", "Bearer " + token)).contains("\"username\":\"system:serviceaccount:default:robot\"");

    assertThat(http1.send("DELETE", "/api/v1/namespaces/default/serviceaccounts/robot", null, null,
        "Authorization", "Bearer " + admin).code()).isEqualTo(200);
    assertThat(http1.post("/api/v1/namespaces/default/serviceaccounts",
        "{\"metadata\":{\"name\":\"robot\"}}", "Authorization", "Bearer " + admin).code()).isEqualTo(201);

    Await.until("the old token is refused once the account has a new uid", WAIT,
        () -> http1.get("/api/v1/namespaces/default/pods", "Authorization", "Bearer " + token).code() == 401);
  }

  @Test
  void impersonation_allowed_andRefusedWithKubes403() {
    assertThat(whoami(http2, "Authorization", "Bearer alice-token", "Impersonate-User", "bob",
        "Impersonate-Group", "g1", "Impersonate-Group", "g2"))
        .isEqualTo("{\"username\":\"bob\",\"groups\":[\"g1\",\"g2\",\"system:authenticated\"]}");

    for (Http http : new Http[] {http1, http2}) {
      Http.Response r = http.get("/api/v1/namespaces/default/pods", "Authorization", "Bearer carol-token",
          "Impersonate-User", "bob");
      assertThat(r.code()).isEqualTo(403);
      assertThat(json(r).path("reason").asText()).isEqualTo("Forbidden");
      assertThat(json(r).path("message").asText()).isEqualTo("users \"bob\" is forbidden: User \"carol\" cannot "
          + "impersonate resource \"users\" in API group \"\" at the cluster scope");
    }
  }

  @Test
  void impersonatedGroupsWithoutAUser_are400() {
    Http.Response r = http1.get("/api/v1/namespaces/default/pods", "Authorization", "Bearer alice-token",
        "Impersonate-Group", "g1");

    assertThat(r.code()).isEqualTo(400);
    assertThat(json(r).path("reason").asText()).isEqualTo("BadRequest");
  }
}

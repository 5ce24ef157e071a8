package io.listwatch.server.authn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jwt.SignedJWT;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authentication API of a running server: TokenRequest, TokenReview, SelfSubjectReview and
 * their discovery, over the plain listener (which acts as the cluster admin).
 */
class AuthenticationApiTest {

  /** How long the server may take to see a deleted service account. */
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir
  static Path dir;
  static ApiServer server;
  static Http http;

  @BeforeAll
  static void start() throws Exception {
    Path tokens = Files.writeString(dir.resolve("tokens.csv"), "alice-token,alice,1001,\"dev,ops\"\n");
    server = ApiServer.builder()
        .authentication(AuthenticationConfig.builder().tokenAuthFile(tokens).build())
        .build().start();
    http = Http.plain(server.url());
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
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

  private static String createServiceAccount(String ns, String name) {
    Http.Response r = http.post("/api/v1/namespaces/" + ns + "/serviceaccounts",
        "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"" + name + "\"}}");
    assertThat(r.code()).as(r.body()).isEqualTo(201);
    return json(r).at("/metadata/uid").asText();
  }

  private static Http.Response requestToken(String ns, String name, String spec) {
    return http.post("/api/v1/namespaces/" + ns + "/serviceaccounts/" + name + "/token",
        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"metadata\":{\"creationTimestamp\":null},"
            + "\"spec\":" + spec + "}");
  }

  private static JsonNode review(String token, String audiences) {
    Http.Response r = http.post("/apis/authentication.k8s.io/v1/tokenreviews",
        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"spec\":{\"token\":\"" + token + "\""
            + (audiences == null ? "" : ",\"audiences\":" + audiences) + "}}");
    assertThat(r.code()).as(r.body()).isEqualTo(201);
    return json(r);
  }

  @Test
  void tokenRequest_issuesAnHourLongTokenForTheApiAudience() throws Exception {
    String uid = createServiceAccount("default", "builder");
    Instant before = Instant.now().minusSeconds(1);

    Http.Response r = requestToken("default", "builder", "{\"audiences\":null,\"boundObjectRef\":null}");

    assertThat(r.code()).as(r.body()).isEqualTo(201);
    JsonNode tr = json(r);
    assertThat(tr.path("kind").asText()).isEqualTo("TokenRequest");
    assertThat(tr.path("apiVersion").asText()).isEqualTo("authentication.k8s.io/v1");
    assertThat(tr.at("/metadata/name").asText()).isEqualTo("builder");
    assertThat(tr.at("/metadata/namespace").asText()).isEqualTo("default");
    assertThat(tr.at("/spec/expirationSeconds").asLong()).isEqualTo(3600);
    assertThat(tr.at("/spec/audiences").toString()).isEqualTo("[\"https://kubernetes.default.svc.cluster.local\"]");
    Instant expires = Instant.parse(tr.at("/status/expirationTimestamp").asText());
    assertThat(expires).isBetween(before.plusSeconds(3600), Instant.now().plusSeconds(3601));
    var claims = SignedJWT.parse(tr.at("/status/token").asText()).getJWTClaimsSet();
    assertThat(claims.getSubject()).isEqualTo("system:serviceaccount:default:builder");
    assertThat(claims.getExpirationTime().toInstant()).isEqualTo(expires);
    assertThat(claims.getJSONObjectClaim("kubernetes.io").get("serviceaccount").toString()).contains(uid);
  }

  @Test
  void tokenRequest_forAMissingServiceAccount_is404() {
    Http.Response r = requestToken("default", "ghost", "{}");

    assertThat(r.code()).isEqualTo(404);
    assertThat(json(r).path("message").asText()).isEqualTo("serviceaccounts \"ghost\" not found");
  }

  @Test
  void tokenRequest_shorterThanTenMinutes_is422() {
    createServiceAccount("default", "short");

    Http.Response r = requestToken("default", "short", "{\"expirationSeconds\":599}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(json(r).path("reason").asText()).isEqualTo("Invalid");
    assertThat(json(r).path("message").asText()).isEqualTo("TokenRequest.authentication.k8s.io \"\" is invalid: "
        + "spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes");
    assertThat(requestToken("default", "short", "{\"expirationSeconds\":600}").code()).isEqualTo(201);
  }

  @Test
  void tokenReview_ofAnIssuedToken_namesTheServiceAccount_untilItIsDeleted() {
    String uid = createServiceAccount("default", "reviewed");
    String token = json(requestToken("default", "reviewed", "{}")).at("/status/token").asText();

    JsonNode ok = review(token, null);

    assertThat(ok.at("/status/authenticated").asBoolean()).isTrue();
    assertThat(ok.at("/status/user/username").asText()).isEqualTo("system:serviceaccount:default:reviewed");
    assertThat(ok.at("/status/user/uid").asText()).isEqualTo(uid);
    assertThat(ok.at("/status/user/groups").toString()).isEqualTo(
        "[\"system:serviceaccounts\",\"system:serviceaccounts:default\",\"system:authenticated\"]");
    assertThat(ok.at("/status/user/extra/authentication.kubernetes.io~1credential-id/0").asText()).startsWith("JTI=");
    assertThat(ok.at("/status/audiences").toString()).isEqualTo("[\"https://kubernetes.default.svc.cluster.local\"]");
    assertThat(ok.at("/spec/token").asText()).isEqualTo(token);

    assertThat(http.delete("/api/v1/namespaces/default/serviceaccounts/reviewed").code()).isEqualTo(200);

    List<JsonNode> seen = new ArrayList<>();
    Await.until("the token is refused after its service account was deleted", WAIT, () -> {
      JsonNode r = review(token, null);
      seen.add(r);
      return !r.at("/status/authenticated").asBoolean();
    });
    assertThat(seen.getLast().at("/status/error").asText())
        .isEqualTo("service account default/reviewed has been deleted");
  }

  @Test
  void tokenReview_ofAStaticToken_andOfGarbage() {
    JsonNode alice = review("alice-token", null);
    assertThat(alice.at("/status/user/username").asText()).isEqualTo("alice");
    assertThat(alice.at("/status/user/groups").toString()).isEqualTo("[\"dev\",\"ops\",\"system:authenticated\"]");

    JsonNode wrongAudience = review("alice-token", "[\"vault\"]");
    assertThat(wrongAudience.at("/status/authenticated").asBoolean()).isFalse();

    JsonNode garbage = review("nope", null);
    assertThat(garbage.at("/status/authenticated").asBoolean()).isFalse();
    assertThat(garbage.at("/status/error").asText()).isEqualTo("invalid bearer token");
  }

  @Test
  void tokenReview_withoutAToken_is400() {
    Http.Response r = http.post("/apis/authentication.k8s.io/v1/tokenreviews", "{\"spec\":{}}");

    assertThat(r.code()).isEqualTo(400);
    assertThat(json(r).path("reason").asText()).isEqualTo("BadRequest");
  }

  @Test
  void selfSubjectReview_onThePlainListener_isTheUnsecuredAdmin() {
    Http.Response r = http.post("/apis/authentication.k8s.io/v1/selfsubjectreviews",
        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\",\"metadata\":{\"creationTimestamp\":null}}");

    assertThat(r.code()).as(r.body()).isEqualTo(201);
    assertThat(json(r).path("kind").asText()).isEqualTo("SelfSubjectReview");
    assertThat(json(r).at("/status/userInfo/username").asText()).isEqualTo("system:unsecured");
    assertThat(json(r).at("/status/userInfo/groups").toString())
        .isEqualTo("[\"system:masters\",\"system:authenticated\"]");
  }

  @Test
  void discovery_listsTheAuthenticationApiAndTheTokenSubresource() {
    JsonNode group = json(http.get("/apis/authentication.k8s.io/v1"));
    assertThat(group.path("resources").findValuesAsText("name"))
        .containsExactlyInAnyOrder("tokenreviews", "selfsubjectreviews");
    JsonNode core = json(http.get("/api/v1"));
    JsonNode token = null;
    for (JsonNode r : core.path("resources")) {
      if (r.path("name").asText().equals("serviceaccounts/token")) {
        token = r;
      }
    }
    assertThat(token).isNotNull();
    assertThat(token.path("kind").asText()).isEqualTo("TokenRequest");
    assertThat(token.path("group").asText()).isEqualTo("authentication.k8s.io");
    assertThat(token.path("verbs").toString()).isEqualTo("[\"create\"]");
  }

  @Test
  void signingKey_isKeptInTheDataDir() {
    assertThat(server.dataDir().resolve(ServiceAccountKeys.GENERATED_KEY_FILE)).exists();
  }
}

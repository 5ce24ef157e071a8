package io.listwatch.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.authn.AuthenticationConfig;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit log of a TLS server with bearer tokens, read back as a user (or a log shipper) reads
 * it: one kube {@code audit.k8s.io/v1} Event per request at level Metadata, found by the
 * {@code Audit-Id} its response carried.
 */
class AuditLogTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final Pattern MICRO_TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");

  @TempDir
  static Path dir;
  static Path log;
  static ApiServer server;
  static HttpClient client;

  /** carol may not touch secrets; alice may impersonate; everything else is allowed. */
  static final Authorizer AUTHORIZER = a -> {
    if (a.verb().equals("impersonate")) {
      return a.user().name().equals("alice") ? Decision.allow("") : Decision.noOpinion("");
    }
    if (a.user().name().equals("carol") && a.resource().equals("secrets")) {
      return Decision.noOpinion("carol may not touch secrets");
    }
    return Decision.allow("allowed by the test");
  };
  /** What kube's authorization filter notes for every request this test's authorizer allows. */
  static final String ALLOWED = "\"authorization.k8s.io/decision\":\"allow\","
      + "\"authorization.k8s.io/reason\":\"allowed by the test\"";

  @BeforeAll
  static void start() throws Exception {
    Path tokens = Files.writeString(dir.resolve("tokens.csv"), "alice-token,alice,1001,dev\ncarol-token,carol,1003\n");
    log = dir.resolve("logs/audit.log");
    server = ApiServer.builder().tls().dataDir(dir.resolve("data"))
        .authentication(AuthenticationConfig.builder().tokenAuthFile(tokens).build())
        .authorizer(AUTHORIZER).auditLog(log)
        .build().start();
    SSLContext ssl = server.trustingSslContext();
    client = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT).build();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static HttpResponse<String> send(String method, String path, String body, String... headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(WAIT)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .header("User-Agent", "audit-test/1.0");
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    try {
      return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String auditId(HttpResponse<?> r) {
    return r.headers().firstValue("Audit-Id").orElseThrow(() -> new AssertionError("no Audit-Id header"));
  }

  /** The events logged for one audit id, waiting (bounded) until {@code count} are there. */
  private static List<JsonNode> events(String auditId, int count) {
    return Await.until(count + " audit events for " + auditId, WAIT,
        () -> readLog().stream().filter(e -> e.path("auditID").asText().equals(auditId)).toList(),
        found -> found.size() >= count);
  }

  private static List<JsonNode> readLog() {
    if (!Files.exists(log)) {
      return List.of();
    }
    try {
      return Files.readAllLines(log).stream().filter(l -> l.endsWith("}")).map(l -> {
        try {
          return JSON.readTree(l);
        } catch (IOException e) {
          throw new AssertionError("not JSON: " + l, e);
        }
      }).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void create_isOneMetadataEvent_withUserObjectAndCode() {
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps?fieldManager=test",
        "{\"metadata\":{\"name\":\"audited\"},\"data\":{\"a\":\"b\"}}", "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("kind").asText()).isEqualTo("Event");
    assertThat(e.path("apiVersion").asText()).isEqualTo("audit.k8s.io/v1");
    assertThat(e.path("level").asText()).isEqualTo("Metadata");
    assertThat(e.path("stage").asText()).isEqualTo("ResponseComplete");
    assertThat(e.path("verb").asText()).isEqualTo("create");
    assertThat(e.path("requestURI").asText()).isEqualTo("/api/v1/namespaces/default/configmaps?fieldManager=test");
    assertThat(e.path("user").toString())
        .isEqualTo("{\"username\":\"alice\",\"uid\":\"1001\",\"groups\":[\"dev\",\"system:authenticated\"]}");
    assertThat(e.has("impersonatedUser")).isFalse();
    assertThat(e.path("sourceIPs").toString()).isEqualTo("[\"127.0.0.1\"]");
    assertThat(e.path("userAgent").asText()).isEqualTo("audit-test/1.0");
    assertThat(e.path("objectRef").toString())
        .isEqualTo("{\"resource\":\"configmaps\",\"namespace\":\"default\",\"apiVersion\":\"v1\"}");
    assertThat(e.path("responseStatus").toString()).isEqualTo("{\"metadata\":{},\"code\":201}");
    assertThat(e.has("requestObject")).isFalse(); // Metadata: no bodies
    assertThat(e.has("responseObject")).isFalse();
    assertThat(e.path("annotations").toString()).as("no plug-in noted anything; the authorizer's decision")
        .isEqualTo("{" + ALLOWED + "}");
    String received = e.path("requestReceivedTimestamp").asText();
    String stage = e.path("stageTimestamp").asText();
    assertThat(received).matches(MICRO_TIME);
    assertThat(stage).matches(MICRO_TIME);
    assertThat(Instant.parse(stage)).isAfterOrEqualTo(Instant.parse(received));
  }

  private static void namespace(String name, String labels) {
    HttpResponse<String> r = send("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + name
        + "\",\"labels\":{" + labels + "}}}", "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }

  private static String pod(String name, String spec) {
    return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}";
  }

  @Test
  void podSecurityAudit_admitsThePod_andItsEventCarriesTheViolation() {
    namespace("audited-restricted", "\"pod-security.kubernetes.io/audit\":\"restricted\"");
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/audited-restricted/pods",
        pod("web", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"), "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    assertThat(r.headers().allValues("Warning")).isEmpty();

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("stage").asText()).isEqualTo("ResponseComplete");
    JsonNode annotations = e.path("annotations");
    assertThat(annotations.path("pod-security.kubernetes.io/audit-violations").asText()).isEqualTo(
        "would violate PodSecurity \"restricted:latest\": "
        + "allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
        + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
        + "runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
        + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to "
        + "\"RuntimeDefault\" or \"Localhost\")");
    assertThat(annotations.path("pod-security.kubernetes.io/enforce-policy").asText()).isEqualTo("privileged:latest");
    assertThat(annotations.size()).isEqualTo(4); // and the authorizer's decision and reason
    List<String> fields = new java.util.ArrayList<>();
    e.fieldNames().forEachRemaining(fields::add);
    assertThat(fields.getLast()).as("kube's field order").isEqualTo("annotations");
  }

  @Test
  void podSecurityEnforce_refusal_isLoggedWithTheEnforcedPolicy() {
    namespace("audited-baseline", "\"pod-security.kubernetes.io/enforce\":\"baseline\"");
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/audited-baseline/pods",
        pod("host", "{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"),
        "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("responseStatus").path("message").asText()).isEqualTo("pods \"host\" is forbidden: "
        + "violates PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true)");
    assertThat(e.path("annotations").toString())
        .isEqualTo("{" + ALLOWED + ",\"pod-security.kubernetes.io/enforce-policy\":\"baseline:latest\"}");
  }

  @Test
  void anImpersonatedWrite_isLoggedWithItsAnnotations() {
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/pods",
        pod("impersonated", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"),
        "Authorization", "Bearer alice-token", "Impersonate-User", "bob");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("impersonatedUser").path("username").asText()).isEqualTo("bob");
    assertThat(e.path("annotations").toString())
        .isEqualTo("{" + ALLOWED + ",\"pod-security.kubernetes.io/enforce-policy\":\"privileged:latest\"}");
  }

  @Test
  void notFound_isLoggedWithTheStatusReasonAndMessage() {
    HttpResponse<String> r = send("GET", "/apis/apps/v1/namespaces/default/deployments/missing",
        null, "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).isEqualTo(404);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("verb").asText()).isEqualTo("get");
    assertThat(e.path("objectRef").toString()).isEqualTo("{\"resource\":\"deployments\",\"namespace\":\"default\","
        + "\"name\":\"missing\",\"apiGroup\":\"apps\",\"apiVersion\":\"v1\"}");
    JsonNode status = e.path("responseStatus");
    assertThat(status.path("code").asInt()).isEqualTo(404);
    assertThat(status.path("status").asText()).isEqualTo("Failure");
    assertThat(status.path("reason").asText()).isEqualTo("NotFound");
    assertThat(status.path("message").asText()).isEqualTo("deployments.apps \"missing\" not found");
  }

  @Test
  void forbidden_isLoggedWithTheUserWhoWasRefused() {
    HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/secrets", null,
        "Authorization", "Bearer carol-token");
    assertThat(r.statusCode()).isEqualTo(403);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("verb").asText()).isEqualTo("list");
    assertThat(e.path("user").path("username").asText()).isEqualTo("carol");
    assertThat(e.path("responseStatus").path("code").asInt()).isEqualTo(403);
    assertThat(e.path("responseStatus").path("reason").asText()).isEqualTo("Forbidden");
    assertThat(e.path("annotations").toString()).as("kube's authorization filter's decision and the authorizer's reason")
        .isEqualTo("{\"authorization.k8s.io/decision\":\"forbid\","
            + "\"authorization.k8s.io/reason\":\"carol may not touch secrets\"}");
  }

  @Test
  void badToken_isLoggedAs401_withAnEmptyUser() {
    HttpResponse<String> r = send("GET", "/api/v1/namespaces", null, "Authorization", "Bearer nope");
    assertThat(r.statusCode()).isEqualTo(401);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("user").toString()).isEqualTo("{}");
    assertThat(e.path("responseStatus").path("code").asInt()).isEqualTo(401);
    assertThat(e.path("responseStatus").path("reason").asText()).isEqualTo("Unauthorized");
  }

  @Test
  void subresource_isInTheObjectRef() {
    HttpResponse<String> created = send("POST", "/api/v1/namespaces/default/pods",
        "{\"metadata\":{\"name\":\"audited-pod\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}",
        "Authorization", "Bearer alice-token");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/pods/audited-pod/status", null,
        "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).isEqualTo(200);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("objectRef").toString()).isEqualTo("{\"resource\":\"pods\",\"namespace\":\"default\","
        + "\"name\":\"audited-pod\",\"apiVersion\":\"v1\",\"subresource\":\"status\"}");
    assertThat(e.path("responseStatus").toString()).isEqualTo("{\"metadata\":{},\"code\":200}");
  }

  @Test
  void impersonation_logsTheAuthenticatedUser_andTheImpersonatedOne() {
    HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/configmaps", null,
        "Authorization", "Bearer alice-token", "Impersonate-User", "bob", "Impersonate-Group", "ops");
    assertThat(r.statusCode()).isEqualTo(200);

    JsonNode e = events(auditId(r), 1).getFirst();
    assertThat(e.path("user").path("username").asText()).isEqualTo("alice");
    assertThat(e.path("impersonatedUser").toString())
        .isEqualTo("{\"username\":\"bob\",\"groups\":[\"ops\",\"system:authenticated\"]}");
  }

  @Test
  void watch_logsResponseStarted_thenResponseComplete_whenItEnds() {
    HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1",
        null, "Authorization", "Bearer alice-token");
    assertThat(r.statusCode()).isEqualTo(200); // the body is complete: the watch has ended

    List<JsonNode> events = events(auditId(r), 2);
    assertThat(events).extracting(e -> e.path("stage").asText()).containsExactly("ResponseStarted", "ResponseComplete");
    assertThat(events).allSatisfy(e -> {
      assertThat(e.path("verb").asText()).isEqualTo("watch");
      assertThat(e.path("responseStatus").path("code").asInt()).isEqualTo(200);
    });
    assertThat(Instant.parse(events.get(1).path("stageTimestamp").asText()))
        .isAfterOrEqualTo(Instant.parse(events.get(0).path("stageTimestamp").asText()).plusMillis(900));
  }

  @Test
  void webSocketWatch_logs101AtResponseStarted_andResponseCompleteWhenClosed() throws Exception {
    String uri = "/api/v1/namespaces/default/configmaps?watch=true&labelSelector=audit%3Dwebsocket";
    java.net.http.WebSocket ws = client.newWebSocketBuilder().header("Authorization", "Bearer alice-token")
        .buildAsync(URI.create(server.url().replace("https:", "wss:") + uri), new java.net.http.WebSocket.Listener() { })
        .get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    ws.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done").get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);

    List<JsonNode> events = Await.until("two audit events for the watch", WAIT,
        () -> readLog().stream().filter(e -> e.path("requestURI").asText().equals(uri)).toList(),
        found -> found.size() >= 2);
    assertThat(events).extracting(e -> e.path("stage").asText()).containsExactly("ResponseStarted", "ResponseComplete");
    assertThat(events).allSatisfy(e -> {
      assertThat(e.path("verb").asText()).isEqualTo("watch");
      assertThat(e.path("user").path("username").asText()).isEqualTo("alice");
      assertThat(e.path("responseStatus").path("code").asInt()).isEqualTo(101);
    });
    assertThat(events.get(0).path("auditID").asText()).isEqualTo(events.get(1).path("auditID").asText());
  }

  @Test
  void auditIdSentByTheClient_isKept() {
    HttpResponse<String> r = send("GET", "/version", null, "Authorization", "Bearer alice-token",
        "Audit-Id", "0a1b2c3d-from-a-proxy");
    assertThat(auditId(r)).isEqualTo("0a1b2c3d-from-a-proxy");

    JsonNode e = events("0a1b2c3d-from-a-proxy", 1).getFirst();
    assertThat(e.path("verb").asText()).isEqualTo("get"); // a non-resource request: the HTTP method
    assertThat(e.has("objectRef")).isFalse();
  }

  @Test
  void everyResponse_hasItsOwnAuditId() {
    String a = auditId(send("GET", "/version", null, "Authorization", "Bearer alice-token"));
    String b = auditId(send("GET", "/version", null, "Authorization", "Bearer alice-token"));

    assertThat(a).isNotEqualTo(b);
    assertThat(java.util.UUID.fromString(a).version()).isEqualTo(4);
  }
}

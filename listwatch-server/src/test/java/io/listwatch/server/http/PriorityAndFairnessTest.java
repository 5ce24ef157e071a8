package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.authn.AuthenticationConfig;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API Priority and Fairness over HTTPS with bearer-token users, as kube's: a user who floods
 * lists gets 429 with {@code Retry-After} once its queues are full, while another user of the
 * same priority level keeps being served; every answer names its FlowSchema and priority level
 * by UID in kube's {@code X-Kubernetes-PF-*} headers, and {@code /metrics} has kube's
 * {@code apiserver_flowcontrol_*} series. With {@code --enable-priority-and-fairness=false} the
 * max-in-flight limit is back and the headers are gone.
 */
class PriorityAndFairnessTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String FLOWCONTROL = "/apis/flowcontrol.apiserver.k8s.io/v1/";

  @TempDir
  Path dir;
  private ApiServer server;
  private HttpClient client;

  private void start(boolean apf) throws IOException {
    Path tokens = Files.writeString(dir.resolve("tokens.csv"),
        "admin-token,admin,1,system:masters\nflooder-token,flooder,2\nlight-token,light,3\n");
    server = ApiServer.builder().tls().dataDir(dir.resolve("data"))
        .authentication(AuthenticationConfig.builder().tokenAuthFile(tokens).build())
        .authorizer(Authorizer.ALWAYS_ALLOW).enablePriorityAndFairness(apf).build().start();
    client = HttpClient.newBuilder().sslContext(server.trustingSslContext()).version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(WAIT).build();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> send(String token, String method, String path, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(WAIT)
        .header("Authorization", "Bearer " + token)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    try {
      return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private String uid(String path) throws IOException {
    HttpResponse<String> r = send("admin-token", "GET", path, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body()).path("metadata").path("uid").asText();
  }

  @Test
  void aFloodingUser_gets429WithRetryAfter_whileAnotherUserOfTheLevelIsServed() throws Exception {
    start(true);
    // a small level both users share, one flow per user: 5 seats (2 of 247 shares of 600), none
    // to lend or borrow, 16 queues of 2, a hand of 2
    assertThat(send("admin-token", "POST", FLOWCONTROL + "prioritylevelconfigurations", """
        {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"shared"},
         "spec":{"type":"Limited","limited":{"nominalConcurrencyShares":2,"borrowingLimitPercent":0,
           "limitResponse":{"type":"Queue",
           "queuing":{"queues":16,"handSize":2,"queueLengthLimit":2}}}}}""").statusCode()).isEqualTo(201);
    assertThat(send("admin-token", "POST", FLOWCONTROL + "flowschemas", """
        {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"shared"},
         "spec":{"priorityLevelConfiguration":{"name":"shared"},"matchingPrecedence":500,
           "distinguisherMethod":{"type":"ByUser"},
           "rules":[{"subjects":[{"kind":"User","user":{"name":"flooder"}},{"kind":"User","user":{"name":"light"}}],
             "resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"]}]}]}}""")
        .statusCode()).isEqualTo(201);
    String schemaUid = uid(FLOWCONTROL + "flowschemas/shared");
    String levelUid = uid(FLOWCONTROL + "prioritylevelconfigurations/shared");
    String cms = "/api/v1/namespaces/default/configmaps";
    for (int i = 0; i < 200; i++) { // 800 KB; a list of them is 1 seat: kube's widest for 5 seats and a hand of 2
      send("admin-token", "POST", cms, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i
          + "\"},\"data\":{\"k\":\"" + "v".repeat(4000) + "\"}}");
    }

    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicInteger rejected = new AtomicInteger();
    AtomicReference<HttpResponse<String>> aRejection = new AtomicReference<>();
    ExecutorService flood = Executors.newFixedThreadPool(24, Thread.ofPlatform().name("flooder-", 0).factory());
    List<Future<?>> floods = new ArrayList<>();
    try {
      for (int t = 0; t < 24; t++) {
        floods.add(flood.submit(() -> {
          while (flooding.get()) {
            HttpResponse<String> r = send("flooder-token", "GET", cms, null);
            if (r.statusCode() == 429) {
              rejected.incrementAndGet();
              aRejection.compareAndSet(null, r);
            } else {
              assertThat(r.statusCode()).isEqualTo(200);
            }
          }
        }));
      }
      Await.until("the flooder is refused", WAIT, () -> rejected.get() > 0);
      for (int i = 0; i < 40; i++) {
        HttpResponse<String> light = send("light-token", "GET", cms + "/c" + i, null);
        assertThat(light.statusCode()).as("the light user's GET during the flood").isEqualTo(200);
        assertThat(light.headers().firstValue(io.listwatch.apiserver.flowcontrol.Classification.FLOW_SCHEMA_UID_HEADER))
            .hasValue(schemaUid);
        assertThat(light.headers().firstValue(
            io.listwatch.apiserver.flowcontrol.Classification.PRIORITY_LEVEL_UID_HEADER)).hasValue(levelUid);
      }
    } finally {
      flooding.set(false);
      flood.shutdown();
      assertThat(flood.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
    for (Future<?> f : floods) {
      f.get(); // no answer but 200 and 429
    }
    HttpResponse<String> refused = aRejection.get();
    assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
    assertThat(refused.headers().firstValue("x-kubernetes-pf-flowschema-uid")).hasValue(schemaUid);
    assertThat(refused.headers().firstValue("x-kubernetes-pf-prioritylevel-uid")).hasValue(levelUid);
    JsonNode status = JSON.readTree(refused.body());
    assertThat(status.path("reason").asText()).isEqualTo("TooManyRequests");
    assertThat(status.path("message").asText()).isEqualTo("Too many requests, please try again later.");

    // a watch holds its seat only until its initial events are queued (one here: the 800 KB of
    // all of them would wait for this reader)
    HttpResponse<java.io.InputStream> watch = client.send(HttpRequest.newBuilder(URI.create(server.url() + cms
        + "?watch=true&fieldSelector=metadata.name%3Dc0")).header("Authorization", "Bearer light-token")
        .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofInputStream());
    try (var events = new java.io.BufferedReader(new java.io.InputStreamReader(watch.body(),
        java.nio.charset.StandardCharsets.UTF_8))) {
      assertThat(events.readLine()).startsWith("{\"type\":\"ADDED\"");
      assertThat(watch.headers().firstValue("x-kubernetes-pf-flowschema-uid")).hasValue(schemaUid);
      Await.until("the open watch gives its seat back", WAIT, () -> PrometheusText.parse(
          send("admin-token", "GET", "/metrics", null).body()).sum("apiserver_flowcontrol_current_executing_seats",
          Map.of("flow_schema", "shared", "priority_level", "shared")) == 0);
    }

    PrometheusText m = PrometheusText.parse(send("admin-token", "GET", "/metrics", null).body());
    Map<String, String> shared = Map.of("flow_schema", "shared", "priority_level", "shared");
    assertThat(m.sum("apiserver_flowcontrol_rejected_requests_total",
        Map.of("flow_schema", "shared", "priority_level", "shared", "reason", "queue-full")))
        .isEqualTo(rejected.get());
    assertThat(m.sum("apiserver_flowcontrol_dispatched_requests_total", shared)).isGreaterThanOrEqualTo(41);
    assertThat(m.sum("apiserver_flowcontrol_request_wait_duration_seconds_count", shared))
        .isGreaterThanOrEqualTo(41 + rejected.get());
    assertThat(m.sum("apiserver_flowcontrol_nominal_limit_seats", Map.of("priority_level", "shared"))).isEqualTo(5);
    assertThat(m.sum("apiserver_flowcontrol_current_limit_seats", Map.of("priority_level", "shared"))).isEqualTo(5);
    assertThat(m.sum("apiserver_flowcontrol_upper_limit_seats", Map.of("priority_level", "global-default")))
        .isEqualTo(649);
    assertThat(m.sum("apiserver_flowcontrol_lower_limit_seats", Map.of("priority_level", "global-default")))
        .isEqualTo(24);
    assertThat(m.sum("apiserver_flowcontrol_nominal_limit_seats", Map.of("priority_level", "global-default")))
        .isEqualTo(49);
    assertThat(m.type("apiserver_flowcontrol_current_inqueue_requests")).isEqualTo("gauge");
    assertThat(m.sum("apiserver_flowcontrol_current_inqueue_requests", shared)).isZero();
    assertThat(m.sum("apiserver_flowcontrol_current_executing_requests", shared)).isZero();
    assertThat(m.sum("apiserver_flowcontrol_current_executing_seats", shared)).isZero();
    assertThat(m.sum("apiserver_flowcontrol_current_executing_requests",
        Map.of("flow_schema", "exempt", "priority_level", "exempt"))).as("the scrape itself").isEqualTo(1);
  }

  @Test
  void priorityAndFairnessOff_leavesMaxInFlight_andNoHeaders() {
    server = ApiServer.builder().enablePriorityAndFairness(false).build().start();
    try (KubeHttp admin = new KubeHttp(server)) {
      KubeHttp.Response r = admin.get("/api/v1/namespaces/default/configmaps");
      assertThat(r.code()).isEqualTo(200);
      assertThat(r.headers().firstValue("x-kubernetes-pf-flowschema-uid")).isEmpty();
      PrometheusText m = PrometheusText.parse(admin.get("/metrics", "text/plain").body());
      assertThat(m.type("apiserver_flowcontrol_nominal_limit_seats")).isNull();
      assertThat(m.sum("apiserver_current_inflight_requests", Map.of("request_kind", "readOnly"))).isEqualTo(1);
    }
  }
}

package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Http;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32) over an aggregated API of the metrics-server shape: an APIService of
 * metrics.k8s.io/v1beta1 in front of a selector-less Service whose Endpoints point at a fake
 * metrics server ({@link FakeMetricsServer}); its resources in {@code kubectl api-resources},
 * its lists through the server with the caller's identity in the remote-user headers,
 * {@code kubectl top node}, a watch streamed through, and the APIService's Available condition
 * as the server behind it goes away. Also the local APIServices kube-apiserver registers for
 * its own group-versions.
 */
@EndToEnd
class KubectlAggregatedApiTest extends KubectlAgainstServer {

  private static String serverUrl;

  @BeforeAll
  static void serverUrl(ApiServer server) {
    serverUrl = server.url();
  }

  @Test
  void getApiServices_listsTheServersOwnGroupVersionsAsLocalAndAvailable() {
    var got = kubectlOk("get", "apiservices");

    assertThat(got.stdout().lines().findFirst().orElseThrow()).matches("NAME +SERVICE +AVAILABLE +AGE");
    assertThat(got.stdout()).containsPattern("(?m)^v1\\. +Local +True +")
        .containsPattern("(?m)^v1\\.apps +Local +True +")
        .containsPattern("(?m)^v1\\.apiregistration\\.k8s\\.io +Local +True +");
    assertThat(kubectlOk("get", "apiservice", "v1.apps", "-o",
        "jsonpath={.spec.groupPriorityMinimum} {.spec.versionPriority} {.metadata.labels}").stdout())
        .isEqualTo("17800 15 {\"kube-aggregator.kubernetes.io/automanaged\":\"onstart\"}");
  }

  @Test
  void anAPIServiceWithoutTheRequiredName_isRefusedAsKubeRefusesIt() {
    var refused = kubectl.run("apply", "-f", kubectl.file("bad-apiservice.yaml", """
        apiVersion: apiregistration.k8s.io/v1
        kind: APIService
        metadata: {name: v1beta1.wrong.example.io}
        spec:
          group: metrics.example.io
          version: v1beta1
          groupPriorityMinimum: 0
          versionPriority: 100
          insecureSkipTLSVerify: true
          service: {namespace: kube-system, name: x}
        """).toString());

    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr())
        .contains("metadata.name: Invalid value: \"v1beta1.wrong.example.io\": must be `spec.version+\".\"+spec.group`: "
            + "\"v1beta1.metrics.example.io\"")
        .contains("spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000");
  }

  @Test
  void metricsServerBehindAnAPIService_isDiscoveredProxiedAndWatchedAndItsAvailabilityFollowsIt() throws Exception {
    // kube refuses loopback Endpoints: the Service in front of the test's server is an ExternalName
    // one (localhost), which the aggregator resolves as kube's does, without an endpoints check
    try (FakeMetricsServer metrics = new FakeMetricsServer("127.0.0.1", "agg-node")) {
      createNode("agg-node");
      kubectlOk("apply", "-f", kubectl.file("metrics-server.yaml", externalNameService()
          + "---\n" + apiService(metrics.caBundle(), metrics.port())).toString());

      awaitAvailable("True");
      assertThat(kubectlOk("get", "apiservice", "v1beta1.metrics.k8s.io", "-o",
          "jsonpath={.status.conditions[?(@.type==\"Available\")].reason}").stdout()).isEqualTo("Passed");
      assertThat(kubectlOk("get", "apiservice", "v1beta1.metrics.k8s.io").stdout())
          .containsPattern("v1beta1\\.metrics\\.k8s\\.io +kube-system/metrics-server +True +");

      // discovery: kubectl's aggregated discovery lists the remote resources
      String resources = Await.until("metrics.k8s.io in api-resources", SERVER_WORK,
          () -> kubectlOk("api-resources", "--api-group=metrics.k8s.io").stdout(), s -> s.contains("NodeMetrics"));
      assertThat(resources).containsPattern("(?m)^nodes +metrics\\.k8s\\.io/v1beta1 +false +NodeMetrics")
          .containsPattern("(?m)^pods +metrics\\.k8s\\.io/v1beta1 +true +PodMetrics");

      // OpenAPI v3: the index links the group-version, whose document is its server's
      assertThat(kubectlOk("get", "--raw", "/openapi/v3").stdout()).contains("\"apis/metrics.k8s.io/v1beta1\"");
      assertThat(kubectlOk("get", "--raw", FakeMetricsServer.OPENAPI).stdout())
          .isEqualTo(FakeMetricsServer.OPENAPI_DOCUMENT);

      // a list through the server, with the caller's identity in the remote-user headers
      assertThat(kubectlOk("get", "--raw", "/apis/metrics.k8s.io/v1beta1/nodes").stdout())
          .contains("\"kind\":\"NodeMetricsList\"").contains("\"name\":\"agg-node\"");
      var seen = metrics.headersOf("/apis/metrics.k8s.io/v1beta1/nodes");
      assertThat(seen.get("X-remote-user")).isNotEmpty();
      assertThat(seen.get("X-remote-group")).contains("system:masters");
      assertThat(seen).doesNotContainKey("Authorization");

      assertThat(kubectlOk("top", "node", "agg-node").stdout()).containsPattern("agg-node +250m +\\d+% +512Mi +\\d+%");

      // a watch streams through: the first event arrives while the remote keeps the stream open
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<InputStream> watch = client.send(HttpRequest.newBuilder(
          URI.create(serverUrl + "/apis/metrics.k8s.io/v1beta1/nodes?watch=true")).timeout(Duration.ofSeconds(30))
          .build(), HttpResponse.BodyHandlers.ofInputStream());
      assertThat(watch.statusCode()).isEqualTo(200);
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
        assertThat(lines.readLine()).startsWith("{\"type\":\"ADDED\"").contains("agg-node");
        metrics.endWatches();
        assertThat(lines.readLine()).isNull();
      }

      // a ClusterIP Service whose Endpoints have no address for the port: MissingEndpoints, and the API answers 503
      kubectlOk("delete", "service", "metrics-server", "-n", "kube-system");
      kubectlOk("apply", "-f", kubectl.file("metrics-endpoints.yaml", clusterIpServiceWithoutAddresses(metrics.port()))
          .toString());
      awaitAvailable("False (MissingEndpoints)");
      assertThat(kubectlOk("get", "apiservice", "v1beta1.metrics.k8s.io", "-o",
          "jsonpath={.status.conditions[?(@.type==\"Available\")].message}").stdout())
          .isEqualTo("endpoints for service/metrics-server in \"kube-system\" have no addresses with port name \"https\"");
      try (Http http = Http.plain(serverUrl)) {
        Http.Response unavailable = http.get("/apis/metrics.k8s.io/v1beta1/nodes");
        assertThat(unavailable.code()).isEqualTo(503);
        assertThat(unavailable.body()).isEqualTo("service unavailable\n");
      }
      // the server gone behind its ExternalName Service: FailedDiscoveryCheck
      metrics.close();
      kubectlOk("delete", "service", "metrics-server", "-n", "kube-system");
      kubectlOk("apply", "-f", kubectl.file("metrics-external.yaml", externalNameService()).toString());
      awaitAvailable("False (FailedDiscoveryCheck)");
      assertThat(kubectlOk("get", "apiservice", "v1beta1.metrics.k8s.io", "-o",
          "jsonpath={.status.conditions[?(@.type==\"Available\")].message}").stdout())
          .startsWith("failing or missing response from https://localhost:" + metrics.port()
              + "/apis/metrics.k8s.io/v1beta1:");
    }
  }

  private static void awaitAvailable(String expected) {
    Await.until("APIService v1beta1.metrics.k8s.io " + expected, SERVER_WORK,
        () -> kubectl.run("get", "apiservice", "v1beta1.metrics.k8s.io", "--no-headers").stdout(),
        s -> s.contains(" " + expected + " "));
  }

  private static io.listwatch.testsupport.Kubectl.Result kubectlOk(String... args) {
    return kubectl.ok(args);
  }

  private static void createNode(String name) {
    api.expect(201, "POST", "/api/v1/nodes", "application/json", """
        {"apiVersion":"v1","kind":"Node","metadata":{"name":"%s"},
         "status":{"capacity":{"cpu":"2","memory":"4Gi","pods":"110"},
                   "allocatable":{"cpu":"2","memory":"4Gi","pods":"110"}}}
        """.formatted(name));
  }

  private static String externalNameService() {
    return """
        apiVersion: v1
        kind: Service
        metadata: {name: metrics-server, namespace: kube-system}
        spec: {type: ExternalName, externalName: localhost}
        """;
  }

  private static String clusterIpServiceWithoutAddresses(int port) {
    return """
        apiVersion: v1
        kind: Service
        metadata: {name: metrics-server, namespace: kube-system}
        spec:
          ports: [{name: https, port: %1$d, protocol: TCP}]
        ---
        apiVersion: v1
        kind: Endpoints
        metadata: {name: metrics-server, namespace: kube-system}
        subsets:
        - notReadyAddresses: [{ip: "192.0.2.10"}]
          ports: [{name: https, port: %1$d, protocol: TCP}]
        """.formatted(port);
  }

  private static String apiService(String caBundle, int port) {
    return """
        apiVersion: apiregistration.k8s.io/v1
        kind: APIService
        metadata: {name: v1beta1.metrics.k8s.io}
        spec:
          group: metrics.k8s.io
          version: v1beta1
          groupPriorityMinimum: 100
          versionPriority: 100
          caBundle: %s
          service: {namespace: kube-system, name: metrics-server, port: %d}
        """.formatted(caBundle, port);
  }

}

package io.listwatch.apiserver.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.UserInfo;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Available condition of an APIService served elsewhere, as kube-aggregator's availability
 * controller sets it from the Service and its Endpoints (kube 1.32's reasons and messages), and
 * what the routes do with such an APIService while it is unavailable: a 503 for its requests,
 * and it is listed in /apis though its resources are not known.
 */
class AvailableConditionControllerTest {

  private static final String APISERVICES = "/apis/apiregistration.k8s.io/v1/apiservices";
  private static final String SERVICES = "/api/v1/namespaces/kube-system/services";
  private static final String ENDPOINTS = "/api/v1/namespaces/kube-system/endpoints";

  @Test
  void condition_followsTheServiceItsPortAndItsEndpoints() {
    try (InMemoryCore core = InMemoryCore.start()) {
      created(core, APISERVICES, """
          {"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1beta1.metrics.k8s.io"},
           "spec":{"group":"metrics.k8s.io","version":"v1beta1","groupPriorityMinimum":100,"versionPriority":100,
                   "insecureSkipTLSVerify":true,"service":{"namespace":"kube-system","name":"metrics-server","port":443}}}""");
      awaitCondition(core, "False", "ServiceNotFound", "service/metrics-server in \"kube-system\" is not present");

      created(core, SERVICES, """
          {"apiVersion":"v1","kind":"Service","metadata":{"name":"metrics-server"},
           "spec":{"ports":[{"name":"https","port":8443,"targetPort":4443}]}}""");
      awaitCondition(core, "False", "ServicePortError",
          "service/metrics-server in \"kube-system\" is not listening on port 443");

      assertThat(core.send(new ApiRequest("PATCH", SERVICES + "/metrics-server", Map.of(),
          Headers.of("Content-Type", "application/merge-patch+json"),
          "{\"spec\":{\"ports\":[{\"name\":\"https\",\"port\":443,\"targetPort\":4443}]}}".getBytes(StandardCharsets.UTF_8),
          ConnectionInfo.insecure(null), UserInfo.UNSECURED)).code()).isEqualTo(200);
      awaitCondition(core, "False", "EndpointsNotFound", "cannot find endpoints for service/metrics-server in \"kube-system\"");

      created(core, ENDPOINTS, """
          {"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"metrics-server"},
           "subsets":[{"addresses":[{"ip":"192.0.2.10"}],"ports":[{"name":"http","port":4443}]}]}""");
      awaitCondition(core, "False", "MissingEndpoints",
          "endpoints for service/metrics-server in \"kube-system\" have no addresses with port name \"https\"");

      // unavailable: its requests are refused, and /apis lists its group all the same
      var routes = core.server.routes();
      assertThatThrownBy(() -> routes.proxyTarget(InMemoryCore.request("GET", "/apis/metrics.k8s.io/v1beta1/nodes",
          Map.of(), null)))
          .isInstanceOfSatisfying(StatusException.class, e -> {
            assertThat(e.code()).isEqualTo(503);
            assertThat(e.getMessage()).isEqualTo("service unavailable");
          });
      assertThat(routes.proxyTarget(InMemoryCore.request("GET", "/apis/apps/v1/deployments", Map.of(), null))).isEmpty();
      String groups = body(core, "/apis");
      assertThat(groups).contains("\"groupVersion\":\"metrics.k8s.io/v1beta1\"");
    }
  }

  @Test
  void localAPIServices_forCustomResourceGroups_comeAndGoWithTheirDefinitions() {
    try (InMemoryCore core = InMemoryCore.start()) {
      created(core, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
          {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"kettles.kitchen.example.io"},
           "spec":{"group":"kitchen.example.io","scope":"Namespaced","names":{"plural":"kettles","kind":"Kettle"},
                   "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
                               {"name":"v1alpha1","served":false,"storage":false,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}""");
      Await.until("v1.kitchen.example.io registered", Duration.ofSeconds(10),
          () -> code(core, APISERVICES + "/v1.kitchen.example.io"), c -> c == 200);
      String apiService = body(core, APISERVICES + "/v1.kitchen.example.io");
      assertThat(apiService).contains("\"groupPriorityMinimum\":1000", "\"versionPriority\":100",
          "\"kube-aggregator.kubernetes.io/automanaged\":\"true\"");
      assertThat(code(core, APISERVICES + "/v1alpha1.kitchen.example.io")).isEqualTo(404);

      assertThat(core.send("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/kettles.kitchen.example.io",
          Map.of(), null).code()).isIn(200, 202);
      Await.until("v1.kitchen.example.io unregistered", Duration.ofSeconds(30),
          () -> code(core, APISERVICES + "/v1.kitchen.example.io"), c -> c == 404);
    }
  }

  private static void awaitCondition(InMemoryCore core, String status, String reason, String message) {
    String expected = status + " " + reason + " " + message;
    Await.until("Available " + expected, Duration.ofSeconds(10), () -> {
      JsonNode c = InMemoryCore.json(body(core, APISERVICES + "/v1beta1.metrics.k8s.io")).at("/status/conditions/0");
      return c.path("status").asText() + " " + c.path("reason").asText() + " " + c.path("message").asText();
    }, expected::equals);
  }

  /** The status code of a GET, a refusal's included. */
  private static int code(InMemoryCore core, String path) {
    try {
      return core.send("GET", path, Map.of(), null).code();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof StatusException se) {
        return se.code();
      }
      throw e;
    }
  }

  private static void created(InMemoryCore core, String path, String json) {
    var r = core.send("POST", path, Map.of(), json);
    assertThat(r.code()).as(path).isEqualTo(201);
  }

  private static String body(InMemoryCore core, String path) {
    StringBuilder b = new StringBuilder();
    for (byte[] part : core.send("GET", path, Map.of(), null).jsonParts().orElseThrow()) {
      b.append(new String(part, StandardCharsets.UTF_8));
    }
    return b.toString();
  }

}

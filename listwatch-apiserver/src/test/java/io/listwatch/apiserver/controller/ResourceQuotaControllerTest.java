package io.listwatch.apiserver.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ResourceQuota end to end, in the core: the admission plug-in charges each create to the
 * quotas of its namespace and refuses one over them, and the controller measures the namespace
 * again when objects go, releasing their usage (kube's resourcequota e2e tests, in short).
 */
class ResourceQuotaControllerTest {

  private static final String QUOTAS = "/api/v1/namespaces/default/resourcequotas";
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final Duration BOUND = Duration.ofSeconds(10);

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private JsonNode send(String method, String path, String body) {
    return send(method, path, Map.of(), body);
  }

  private JsonNode send(String method, String path, Map<String, List<String>> query, String body) {
    StringBuilder json = new StringBuilder();
    for (byte[] part : core.send(method, path, query, body).jsonParts().orElseThrow()) {
      json.append(new String(part, StandardCharsets.UTF_8));
    }
    return InMemoryCore.json(json.toString());
  }

  private void createQuota(String name, String hard) {
    send("POST", QUOTAS, "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{\"hard\":" + hard + "}}");
  }

  /**
   * Waits until the quota's {@code status.used} is {@code used} (as JSON) in the watch cache,
   * where the admission plug-in reads it (and so in storage too).
   */
  private JsonNode awaitUsed(String name, String used) {
    JsonNode expected = InMemoryCore.json(used);
    return Await.until(name + " uses " + used, BOUND,
        () -> {
          try {
            return send("GET", QUOTAS + "/" + name, Map.of("resourceVersion", List.of("0")), null);
          } catch (java.util.concurrent.CompletionException notInTheCacheYet) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
          }
        },
        q -> q.path("status").path("used").equals(expected));
  }

  private static String pod(String name, String resources) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"containers\":"
        + "[{\"name\":\"c\",\"image\":\"nginx\"" + (resources == null ? "" : ",\"resources\":" + resources) + "}]}}";
  }

  private StatusException refused(String path, String body) {
    StatusException e = core.refusal("POST", path, Map.of(), body);
    assertThat(e.code()).as(e.getMessage()).isEqualTo(403);
    return e;
  }

  @Test
  void podsUpToTheQuota_areCreated_theNextIsRefused_andADeleteMakesRoom() {
    createQuota("pods", "{\"pods\":\"2\"}");
    JsonNode measured = awaitUsed("pods", "{\"pods\":\"0\"}");
    assertThat(measured.path("status").path("hard")).isEqualTo(InMemoryCore.json("{\"pods\":\"2\"}"));

    send("POST", PODS, pod("a", null));
    send("POST", PODS, pod("b", null));
    assertThat(refused(PODS, pod("c", null)).getMessage())
        .isEqualTo("pods \"c\" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2");
    awaitUsed("pods", "{\"pods\":\"2\"}");

    core.send("DELETE", PODS + "/a", Map.of("gracePeriodSeconds", List.of("0")), null);
    awaitUsed("pods", "{\"pods\":\"1\"}");
    assertThat(send("POST", PODS, pod("c", null)).path("metadata").path("name").asText()).isEqualTo("c");
    awaitUsed("pods", "{\"pods\":\"2\"}");
  }

  @Test
  void computeQuota_needsEveryContainerToStateIt_andSumsRequests() {
    createQuota("compute", "{\"requests.cpu\":\"1\",\"limits.memory\":\"1Gi\"}");
    awaitUsed("compute", "{\"limits.memory\":\"0\",\"requests.cpu\":\"0\"}");

    assertThat(refused(PODS, pod("bare", null)).getMessage()).isEqualTo("pods \"bare\" is forbidden: failed quota: "
        + "compute: must specify limits.memory for: c; requests.cpu for: c");
    String resources = "{\"requests\":{\"cpu\":\"600m\"},\"limits\":{\"cpu\":\"600m\",\"memory\":\"512Mi\"}}";
    send("POST", PODS, pod("a", resources));
    awaitUsed("compute", "{\"limits.memory\":\"512Mi\",\"requests.cpu\":\"600m\"}");
    assertThat(refused(PODS, pod("b", resources)).getMessage()).isEqualTo("pods \"b\" is forbidden: exceeded quota: "
        + "compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1");
  }

  @Test
  void aDryRun_isCheckedButNotCharged() {
    createQuota("pods", "{\"pods\":\"1\",\"count/configmaps\":\"5\"}");
    awaitUsed("pods", "{\"count/configmaps\":\"0\",\"pods\":\"0\"}");
    core.send("POST", PODS, Map.of("dryRun", List.of("All")), pod("a", null));
    assertThat(send("GET", QUOTAS + "/pods", null).path("status").path("used").path("pods").asText()).isEqualTo("0");
    send("POST", PODS, pod("a", null));
    StatusException e = core.refusal("POST", PODS, Map.of("dryRun", List.of("All")), pod("b", null));
    assertThat(e.getMessage()).contains("exceeded quota: pods");
  }

  @Test
  void objectCounts_andServicePorts_areCounted_andReleased() {
    createQuota("objects", "{\"configmaps\":\"1\",\"count/configmaps\":\"1\",\"services.nodeports\":\"2\"}");
    awaitUsed("objects", "{\"configmaps\":\"0\",\"count/configmaps\":\"0\",\"services.nodeports\":\"0\"}");
    String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"%s\"}}";
    send("POST", "/api/v1/namespaces/default/configmaps", cm.formatted("one"));
    assertThat(refused("/api/v1/namespaces/default/configmaps", cm.formatted("two")).getMessage())
        .isEqualTo("configmaps \"two\" is forbidden: exceeded quota: objects, requested: configmaps=1,count/configmaps=1, "
            + "used: configmaps=1,count/configmaps=1, limited: configmaps=1,count/configmaps=1");
    String svc = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"%s\"},\"spec\":{\"type\":\"NodePort\","
        + "\"ports\":[{\"name\":\"a\",\"port\":80},{\"name\":\"b\",\"port\":81}]}}";
    send("POST", "/api/v1/namespaces/default/services", svc.formatted("web"));
    assertThat(refused("/api/v1/namespaces/default/services", svc.formatted("api")).getMessage())
        .isEqualTo("services \"api\" is forbidden: exceeded quota: objects, requested: services.nodeports=2, "
            + "used: services.nodeports=2, limited: services.nodeports=2");

    core.send("DELETE", "/api/v1/namespaces/default/configmaps/one", Map.of(), null);
    core.send("DELETE", "/api/v1/namespaces/default/services/web", Map.of(), null);
    awaitUsed("objects", "{\"configmaps\":\"0\",\"count/configmaps\":\"0\",\"services.nodeports\":\"0\"}");
  }

  @Test
  void aQuotaNotYetMeasured_appliesToNothing_thenCountsWhatIsThere() {
    send("POST", PODS, pod("before", null));
    createQuota("late", "{\"pods\":\"5\"}");
    awaitUsed("late", "{\"pods\":\"1\"}");
  }
}

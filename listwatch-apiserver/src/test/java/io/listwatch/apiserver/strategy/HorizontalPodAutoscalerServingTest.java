package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HorizontalPodAutoscalers served as kube 1.32 serves them: autoscaling/v2 (preferred, stored)
 * and autoscaling/v1 over one storage, kube's conversion between them (v1's CPU target, the
 * other metrics, status and behavior in its annotations), kube's documentation examples
 * accepted (the watch through v1 is HorizontalPodAutoscalerWatchTest).
 */
class HorizontalPodAutoscalerServingTest {

  private static final String V1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
  private static final String V2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
  private static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";

  /** What {@code kubectl autoscale deployment php-apache --cpu-percent=50 --min=1 --max=10} (1.32) posts. */
  private static final String AUTOSCALE_V1 = """
      {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"php-apache"},
       "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"php-apache"},
               "minReplicas":1,"maxReplicas":10,"targetCPUUtilizationPercentage":50}}""";

  /** The walkthrough's v2 HPA with every metric type of the HPA pages, and the behavior example. */
  private static final String WALKTHROUGH_V2 = """
      {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"php-apache"},
       "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"php-apache"},
         "minReplicas":1,"maxReplicas":10,
         "metrics":[
           {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}},
           {"type":"Pods","pods":{"metric":{"name":"packets-per-second"},"target":{"type":"AverageValue","averageValue":"1k"}}},
           {"type":"Object","object":{"metric":{"name":"requests-per-second"},
             "describedObject":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"main-route"},
             "target":{"type":"Value","value":"10k"}}},
           {"type":"External","external":{"metric":{"name":"queue_messages_ready","selector":{"matchLabels":{"queue":"worker_tasks"}}},
             "target":{"type":"AverageValue","averageValue":"30"}}},
           {"type":"ContainerResource","containerResource":{"name":"cpu","container":"application",
             "target":{"type":"Utilization","averageUtilization":60}}}],
         "behavior":{"scaleDown":{"policies":[{"type":"Pods","value":4,"periodSeconds":60},
                                              {"type":"Percent","value":10,"periodSeconds":60}]}}}}""";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void close() {
    core.close();
  }

  private ObjectNode get(String path) {
    return StrategyCases.body(core.send("GET", path, Map.of(), null));
  }

  private ObjectNode send(String method, String path, String body, int code) {
    var response = core.send(method, path, Map.of(), body);
    assertThat(response.code()).as(method + " " + path).isEqualTo(code);
    return StrategyCases.body(response);
  }

  @Test
  void registry_servesV2First_thenV1_withKubesNames() {
    assertThat(ResourceRegistry.builtins().versions("autoscaling")).containsExactly("v2", "v1");
    var v2 = ResourceRegistry.builtins().find("autoscaling", "v2", "horizontalpodautoscalers").orElseThrow();
    assertThat(v2.shortNames()).containsExactly("hpa");
    assertThat(v2.categories()).containsExactly("all");
    assertThat(v2.hasStatus()).isTrue();
    assertThat(ResourceRegistry.builtins().find("autoscaling", "v1", "horizontalpodautoscalers")).isPresent();
  }

  @Test
  @SuppressWarnings("unchecked")
  void discovery_prefersV2_andListsTheResourceWithItsStatus_inBothVersions() {
    var groups = (Map<String, Object>) ((io.listwatch.apiserver.request.ApiResponse.DiscoveryBody)
        core.send("GET", "/apis", Map.of(), null).body()).legacy();
    assertThat((List<Map<String, Object>>) groups.get("groups")).filteredOn(g -> g.get("name").equals("autoscaling"))
        .singleElement().satisfies(g -> assertThat(g.get("preferredVersion"))
            .isEqualTo(Map.of("groupVersion", "autoscaling/v2", "version", "v2")));
    for (String version : List.of("v2", "v1")) {
      var list = (Map<String, Object>) ((io.listwatch.apiserver.request.ApiResponse.Value)
          core.send("GET", "/apis/autoscaling/" + version, Map.of(), null).body()).value();
      assertThat((List<Map<String, Object>>) list.get("resources")).extracting(r -> r.get("name"))
          .containsExactly("horizontalpodautoscalers", "horizontalpodautoscalers/status");
    }
  }

  @Test
  void kubectlAutoscale_v1_isStoredAsV2_andReadBackInBothVersions() {
    ObjectNode created = send("POST", V1, AUTOSCALE_V1, 201);
    assertThat(created.path("apiVersion").asText()).isEqualTo("autoscaling/v1");
    assertThat(created.at("/spec/targetCPUUtilizationPercentage").asInt()).isEqualTo(50);

    ObjectNode v2 = get(V2 + "/php-apache");
    assertThat(v2.path("apiVersion").asText()).isEqualTo("autoscaling/v2");
    assertThat(v2.at("/spec/metrics")).isEqualTo(InMemoryCore.json("""
        {"m":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}""")
        .get("m"));
    assertThat(v2.at("/spec/minReplicas").asInt()).isEqualTo(1);
    assertThat(v2.at("/metadata/annotations").isMissingNode()).isTrue();
    assertThat(get(V1 + "/php-apache").at("/spec/targetCPUUtilizationPercentage").asInt()).isEqualTo(50);
  }

  @Test
  void v1WithoutTarget_getsKubesDefaultCpuTarget_of80() {
    ObjectNode created = send("POST", V1, AUTOSCALE_V1.replace(",\"targetCPUUtilizationPercentage\":50", "")
        .replace("\"minReplicas\":1,", ""), 201);
    assertThat(created.at("/spec/minReplicas").asInt()).isEqualTo(1);
    assertThat(created.at("/spec/targetCPUUtilizationPercentage").asInt()).isEqualTo(80);
    assertThat(get(V2 + "/php-apache").at("/spec/metrics/0/resource/target/averageUtilization").asInt()).isEqualTo(80);
  }

  @Test
  void theWalkthroughsV2_isAccepted_andDefaulted() {
    ObjectNode created = send("POST", V2, WALKTHROUGH_V2, 201);
    assertThat(created.at("/spec/metrics").size()).isEqualTo(5);
    // kube's behavior defaults fill both sides
    assertThat(created.at("/spec/behavior/scaleUp")).isEqualTo(InMemoryCore.json("""
        {"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[
          {"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]}"""));
    assertThat(created.at("/spec/behavior/scaleDown/selectPolicy").asText()).isEqualTo("Max");
    assertThat(created.at("/spec/behavior/scaleDown/policies").size()).isEqualTo(2);
    assertThat(created.at("/spec/behavior/scaleDown/stabilizationWindowSeconds").isMissingNode()).isTrue();
  }

  @Test
  void v2ReadAsV1_keepsTheOtherMetricsAndBehaviorInAnnotations_andAV1WriteKeepsThem() {
    send("POST", V2, WALKTHROUGH_V2, 201);
    ObjectNode v1 = get(V1 + "/php-apache");
    assertThat(v1.at("/spec/targetCPUUtilizationPercentage").asInt()).isEqualTo(50);
    assertThat(v1.at("/spec/metrics").isMissingNode()).isTrue();
    JsonNode others = InMemoryCore.json("{\"a\":" + v1.at("/metadata/annotations").path(METRICS).asText() + "}").get("a");
    assertThat(others).hasSize(4);
    assertThat(others.get(0)).isEqualTo(InMemoryCore.json("""
        {"type":"Pods","pods":{"metricName":"packets-per-second","targetAverageValue":"1k"}}"""));
    assertThat(others.get(1)).isEqualTo(InMemoryCore.json("""
        {"type":"Object","object":{"target":{"kind":"Ingress","name":"main-route","apiVersion":"networking.k8s.io/v1"},
         "metricName":"requests-per-second","targetValue":"10k"}}"""));
    assertThat(v1.at("/metadata/annotations").path("autoscaling.alpha.kubernetes.io/behavior").asText())
        .contains("\"ScaleDown\":{\"StabilizationWindowSeconds\":null,\"SelectPolicy\":\"Max\"");

    // a v1 client changes maxReplicas: the v2 object keeps its metrics (cpu last, as kube's conversion orders them) and behavior
    v1.with("spec").put("maxReplicas", 20);
    send("PUT", V1 + "/php-apache", v1.toString(), 200);
    ObjectNode v2 = get(V2 + "/php-apache");
    assertThat(v2.at("/spec/maxReplicas").asInt()).isEqualTo(20);
    assertThat(v2.at("/spec/metrics").size()).isEqualTo(5);
    assertThat(v2.at("/spec/metrics/0/type").asText()).isEqualTo("Pods");
    assertThat(v2.at("/spec/metrics/4/resource/name").asText()).isEqualTo("cpu");
    assertThat(v2.at("/spec/metrics/3/containerResource/container").asText()).isEqualTo("application");
    assertThat(v2.at("/spec/behavior/scaleDown/policies/0/value").asInt()).isEqualTo(4);
    assertThat(v2.at("/metadata/annotations").isMissingNode()).isTrue();
  }

  @Test
  void status_writtenThroughV2_readsAsV1_andAV1SpecUpdateKeepsIt() {
    send("POST", V2, WALKTHROUGH_V2, 201);
    ObjectNode v2 = get(V2 + "/php-apache");
    v2.putObject("status").put("currentReplicas", 3).put("desiredReplicas", 3)
        .set("currentMetrics", InMemoryCore.json("""
            {"m":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"100m","averageUtilization":42}}}]}""")
            .get("m"));
    ((ObjectNode) v2.get("status")).putArray("conditions").addObject().put("type", "AbleToScale").put("status", "True")
        .put("reason", "ReadyForNewScale");
    send("PUT", V2 + "/php-apache/status", v2.toString(), 200);

    ObjectNode v1 = get(V1 + "/php-apache");
    assertThat(v1.at("/status/currentCPUUtilizationPercentage").asInt()).isEqualTo(42);
    assertThat(v1.at("/status/currentReplicas").asInt()).isEqualTo(3);
    assertThat(v1.at("/metadata/annotations").path("autoscaling.alpha.kubernetes.io/conditions").asText())
        .contains("AbleToScale");

    // a v1 client that drops the status annotations cannot drop the status
    ((ObjectNode) v1.get("metadata")).remove("annotations");
    v1.with("spec").put("minReplicas", 2);
    send("PUT", V1 + "/php-apache", v1.toString(), 200);
    ObjectNode after = get(V2 + "/php-apache");
    assertThat(after.at("/spec/minReplicas").asInt()).isEqualTo(2);
    assertThat(after.at("/status/conditions/0/type").asText()).isEqualTo("AbleToScale");
    assertThat(after.at("/status/currentMetrics/0/resource/current/averageUtilization").asInt()).isEqualTo(42);
    // ... but dropping the metrics annotation drops those metrics, as in kube
    assertThat(after.at("/spec/metrics").size()).isEqualTo(1);
  }

  @Test
  void protobuf_roundTripsBothVersions() {
    ObjectNode v2 = send("POST", V2, WALKTHROUGH_V2, 201);
    ObjectNode v1 = get(V1 + "/php-apache");
    for (ObjectNode hpa : List.of(v2, v1)) {
      String apiVersion = hpa.path("apiVersion").asText();
      assertThat(io.listwatch.apiserver.protobuf.KubeProtobuf.decode(
          io.listwatch.apiserver.protobuf.KubeProtobuf.encode(hpa), apiVersion, "HorizontalPodAutoscaler"))
          .as(apiVersion).isEqualTo(hpa);
    }
  }

  @Test
  void invalid_throughEitherVersion_isRefusedWithKubesPaths() {
    var refused = core.refusal("POST", V1, Map.of(), AUTOSCALE_V1.replace("\"maxReplicas\":10", "\"maxReplicas\":0"));
    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.status().details().causes()).extracting(c -> c.field() + ": " + c.message()).containsExactly(
        "spec.maxReplicas: Invalid value: 0: must be greater than 0",
        "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`");
    refused = core.refusal("POST", V1, Map.of(), AUTOSCALE_V1.replace("50}", "0}"));
    assertThat(refused.status().details().causes()).extracting(c -> c.field() + ": " + c.message()).containsExactly(
        "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0");
  }

  @Test
  void statusUpdate_refusesNegativeReplicas() {
    send("POST", V2, WALKTHROUGH_V2, 201);
    ObjectNode v2 = get(V2 + "/php-apache");
    v2.putObject("status").put("currentReplicas", -1).put("desiredReplicas", 0);
    var refused = core.refusal("PUT", V2 + "/php-apache/status", Map.of(), v2.toString());
    assertThat(refused.status().details().causes()).extracting(c -> c.field() + ": " + c.message()).containsExactly(
        "status.currentReplicas: Invalid value: -1: must be greater than or equal to 0");
  }
}

package io.listwatch.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import org.junit.jupiter.api.Test;

/**
 * kube's autoscaling/v1 &lt;-&gt; v2 conversion of HorizontalPodAutoscalers (pkg/apis/autoscaling/v1
 * conversion.go and its round-trip tests): the CPU target as v1's field, the rest in v1's
 * annotations, and round trips that give back what was converted.
 */
class HorizontalPodAutoscalerConversionTest {

  private static final String V2_ALL = """
      {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{"keep":"me"}},
       "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"minReplicas":2,"maxReplicas":10,
         "metrics":[
           {"type":"Pods","pods":{"metric":{"name":"packets-per-second"},"target":{"type":"AverageValue","averageValue":"1k"}}},
           {"type":"Object","object":{"metric":{"name":"requests-per-second"},
             "describedObject":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"main-route"},
             "target":{"type":"Value","value":"10k"}}},
           {"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"queue":"w"}}},
             "target":{"type":"AverageValue","averageValue":"30"}}},
           {"type":"ContainerResource","containerResource":{"name":"cpu","container":"app",
             "target":{"type":"Utilization","averageUtilization":60}}},
           {"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"500Mi"}}},
           {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}],
         "behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15}]},
                     "scaleDown":{"selectPolicy":"Min","policies":[{"type":"Percent","value":10,"periodSeconds":60}]}}},
       "status":{"currentReplicas":3,"desiredReplicas":4,
         "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"120m","averageUtilization":42}}}],
         "conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale"}]}}""";

  @Test
  void v2ToV1_keepsTheCpuTargetAsV1sField_andTheRestInKubesAnnotations() {
    ObjectNode v1 = HorizontalPodAutoscalerConversion.toV1(InMemoryCore.json(V2_ALL));
    assertThat(v1.path("apiVersion").asText()).isEqualTo("autoscaling/v1");
    assertThat(v1.at("/spec/targetCPUUtilizationPercentage").asInt()).isEqualTo(50);
    assertThat(v1.at("/spec").has("metrics")).isFalse();
    assertThat(v1.at("/spec").has("behavior")).isFalse();
    assertThat(v1.at("/status/currentCPUUtilizationPercentage").asInt()).isEqualTo(42);
    assertThat(v1.at("/status").has("conditions")).isFalse();
    JsonNode annotations = v1.at("/metadata/annotations");
    assertThat(annotations.path("keep").asText()).isEqualTo("me");
    assertThat(parse(annotations, HorizontalPodAutoscalerConversion.METRICS)).isEqualTo(InMemoryCore.json("""
        {"a":[{"type":"Pods","pods":{"metricName":"packets-per-second","targetAverageValue":"1k"}},
         {"type":"Object","object":{"target":{"kind":"Ingress","name":"main-route","apiVersion":"networking.k8s.io/v1"},
           "metricName":"requests-per-second","targetValue":"10k"}},
         {"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"queue":"w"}},"targetAverageValue":"30"}},
         {"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":60,"container":"app"}},
         {"type":"Resource","resource":{"name":"memory","targetAverageValue":"500Mi"}}]}""").get("a"));
    assertThat(parse(annotations, HorizontalPodAutoscalerConversion.CURRENT_METRICS)).isEqualTo(InMemoryCore.json("""
        {"a":[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"120m"}}]}""")
        .get("a"));
    assertThat(parse(annotations, HorizontalPodAutoscalerConversion.CONDITIONS).get(0).path("type").asText())
        .isEqualTo("AbleToScale");
    // kube marshals its internal type there: Go field names, nil as null
    assertThat(annotations.path(HorizontalPodAutoscalerConversion.BEHAVIOR).asText()).isEqualTo(
        "{\"ScaleUp\":{\"StabilizationWindowSeconds\":0,\"SelectPolicy\":\"Max\",\"Policies\":[{\"Type\":\"Pods\",\"Value\":4,"
            + "\"PeriodSeconds\":15}]},\"ScaleDown\":{\"StabilizationWindowSeconds\":null,\"SelectPolicy\":\"Min\","
            + "\"Policies\":[{\"Type\":\"Percent\",\"Value\":10,\"PeriodSeconds\":60}]}}");
  }

  @Test
  void v2_toV1_andBack_isTheSame_butTheCpuMetricComesLast() {
    ObjectNode original = InMemoryCore.json(V2_ALL);
    ObjectNode back = HorizontalPodAutoscalerConversion.toV2(HorizontalPodAutoscalerConversion.toV1(original));
    assertThat(back.path("apiVersion").asText()).isEqualTo("autoscaling/v2");
    assertThat(back.at("/spec/metrics")).isEqualTo(original.at("/spec/metrics"));
    assertThat(back.at("/spec/behavior")).isEqualTo(original.at("/spec/behavior"));
    assertThat(back.at("/status/conditions")).isEqualTo(original.at("/status/conditions"));
    assertThat(back.at("/status/currentMetrics")).isEqualTo(original.at("/status/currentMetrics"));
    assertThat(back.at("/metadata/annotations")).isEqualTo(original.at("/metadata/annotations"));
    assertThat(back.at("/spec/scaleTargetRef")).isEqualTo(original.at("/spec/scaleTargetRef"));
  }

  @Test
  void v1_toV2_andBack_isTheSame() {
    ObjectNode v1 = InMemoryCore.json("""
        {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"php-apache"},
         "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"php-apache"},
                 "minReplicas":1,"maxReplicas":10,"targetCPUUtilizationPercentage":50},
         "status":{"currentReplicas":1,"desiredReplicas":1}}""");
    ObjectNode v2 = HorizontalPodAutoscalerConversion.toV2(v1);
    assertThat(v2.at("/spec/metrics/0/resource/target/averageUtilization").asInt()).isEqualTo(50);
    assertThat(v2.at("/spec").has("targetCPUUtilizationPercentage")).isFalse();
    assertThat(HorizontalPodAutoscalerConversion.toV1(v2)).isEqualTo(v1);
  }

  @Test
  void v1_cpuOnlyStatus_becomesAResourceMetric_andAnObjectsAverageTarget_keepsGosZeroValue() {
    ObjectNode v1 = InMemoryCore.json("""
        {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{
           "autoscaling.alpha.kubernetes.io/metrics":"[{\\"type\\":\\"Object\\",\\"object\\":{\\"target\\":{\\"kind\\":\\"Service\\",\\"name\\":\\"s\\"},\\"metricName\\":\\"m\\",\\"averageValue\\":\\"5\\"}}]"}},
         "spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3},
         "status":{"currentReplicas":1,"desiredReplicas":1,"currentCPUUtilizationPercentage":30}}""");
    ObjectNode v2 = HorizontalPodAutoscalerConversion.toV2(v1);
    assertThat(v2.at("/spec/metrics")).isEqualTo(InMemoryCore.json("""
        {"a":[{"type":"Object","object":{"describedObject":{"kind":"Service","name":"s"},
          "target":{"type":"AverageValue","value":"0","averageValue":"5"},"metric":{"name":"m"}}}]}""").get("a"));
    assertThat(v2.at("/status/currentMetrics/0")).isEqualTo(InMemoryCore.json("""
        {"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":30}}}"""));
    assertThat(v2.at("/metadata").has("annotations")).isFalse();
  }

  @Test
  void malformedAnnotations_areIgnored_andDropped_asKubeMovesOnlyWellFormedData() {
    ObjectNode v1 = InMemoryCore.json("""
        {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{
           "autoscaling.alpha.kubernetes.io/metrics":"not json","autoscaling.alpha.kubernetes.io/behavior":"{}"}},
         "spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3}}""");
    ObjectNode v2 = HorizontalPodAutoscalerConversion.toV2(v1);
    assertThat(v2.at("/spec/metrics/0/resource/target/averageUtilization").asInt()).isEqualTo(80);
    assertThat(v2.at("/spec").has("behavior")).isFalse();
    assertThat(v2.at("/metadata").has("annotations")).isFalse();
  }

  @Test
  void v2Served_getsV2Defaults_andV1Served_isIdempotent() {
    ObjectNode v2 = HorizontalPodAutoscalerConversion.V2.toServed(InMemoryCore.json("""
        {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{
           "autoscaling.alpha.kubernetes.io/behavior":"{\\"ScaleUp\\":null,\\"ScaleDown\\":{\\"StabilizationWindowSeconds\\":300,\\"SelectPolicy\\":null,\\"Policies\\":null}}"}},
         "spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3}}"""));
    assertThat(v2.at("/spec/minReplicas").asInt()).isEqualTo(1);
    assertThat(v2.at("/spec/behavior/scaleUp/policies").size()).isEqualTo(2);
    assertThat(v2.at("/spec/behavior/scaleDown/stabilizationWindowSeconds").asInt()).isEqualTo(300);
    assertThat(v2.at("/spec/behavior/scaleDown/selectPolicy").asText()).isEqualTo("Max");
    ObjectNode v1 = HorizontalPodAutoscalerConversion.V1.toServed(v2.deepCopy());
    assertThat(HorizontalPodAutoscalerConversion.V1.toServed(v1.deepCopy())).isEqualTo(v1);
    assertThat(HorizontalPodAutoscalerConversion.V1.toStorage(v1).path("apiVersion").asText()).isEqualTo("autoscaling/v2");
  }

  private static JsonNode parse(JsonNode annotations, String key) {
    return InMemoryCore.json("{\"a\":" + annotations.path(key).asText() + "}").get("a");
  }
}

package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.registry.HorizontalPodAutoscalerConversion;
import org.junit.jupiter.api.Test;

/** kube's HorizontalPodAutoscaler columns and its TARGETS formatting, for v2 and v1 objects. */
class HorizontalPodAutoscalerTableConvertorTest {

  private static final HorizontalPodAutoscalerTableConvertor V2 = new HorizontalPodAutoscalerTableConvertor(o -> o);
  private static final HorizontalPodAutoscalerTableConvertor V1 =
      new HorizontalPodAutoscalerTableConvertor(HorizontalPodAutoscalerConversion::toV2);

  private static String hpa(String metrics, String status) {
    return """
        {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
         "metadata":{"name":"php-apache","creationTimestamp":"%s"},
         "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"php-apache"},
                 "minReplicas":1,"maxReplicas":10,"metrics":[%s]},"status":%s}"""
        .formatted(Rows.CREATED_5M_AGO, metrics, status);
  }

  private static final String CPU =
      "{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"target\":{\"type\":\"Utilization\",\"averageUtilization\":50}}}";
  private static final String PODS = "{\"type\":\"Pods\",\"pods\":{\"metric\":{\"name\":\"p\"},\"target\":{\"type\":\"AverageValue\",\"averageValue\":\"1k\"}}}";
  private static final String OBJECT_AVG = "{\"type\":\"Object\",\"object\":{\"metric\":{\"name\":\"o\"},"
      + "\"describedObject\":{\"kind\":\"Service\",\"name\":\"s\"},\"target\":{\"type\":\"AverageValue\",\"averageValue\":\"2\"}}}";
  private static final String EXTERNAL = "{\"type\":\"External\",\"external\":{\"metric\":{\"name\":\"q\"},"
      + "\"target\":{\"type\":\"Value\",\"value\":\"30\"}}}";
  private static final String MEMORY = "{\"type\":\"ContainerResource\",\"containerResource\":{\"name\":\"memory\","
      + "\"container\":\"app\",\"target\":{\"type\":\"AverageValue\",\"averageValue\":\"500Mi\"}}}";

  @Test
  void columns_areKubes() {
    assertThat(Rows.headers(V2)).containsExactly("Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age");
  }

  @Test
  void row_withoutStatus_showsUnknownCurrentValues() {
    assertThat(Rows.cells(V2, hpa(CPU, "{}")))
        .containsExactly("php-apache", "Deployment/php-apache", "cpu: <unknown>/50%", "1", 10L, 0L, "5m");
  }

  @Test
  void targets_formatEachMetricType_andStopAfterTwo() {
    assertThat(HorizontalPodAutoscalerTableConvertor.metrics(Rows.json("[" + PODS + "," + OBJECT_AVG + "]"),
        Rows.json("[{\"type\":\"Pods\",\"pods\":{\"current\":{\"averageValue\":\"900\"}}}]")))
        .isEqualTo("900/1k, <unknown>/2 (avg)");
    assertThat(HorizontalPodAutoscalerTableConvertor.metrics(Rows.json("[" + EXTERNAL + "," + MEMORY + "]"),
        Rows.json("[]"))).isEqualTo("<unknown>/30, memory: <unknown>/500Mi");
    assertThat(HorizontalPodAutoscalerTableConvertor.metrics(Rows.json("[" + CPU + "," + PODS + "," + EXTERNAL + "]"),
        Rows.json("[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"current\":{\"averageUtilization\":42}}}]")))
        .isEqualTo("cpu: 42%/50%, <unknown>/1k + 1 more...");
    assertThat(HorizontalPodAutoscalerTableConvertor.metrics(Rows.json("[]"), Rows.json("[]"))).isEqualTo("<none>");
  }

  @Test
  void v1Row_isPrintedFromItsV2Form() {
    String v1 = """
        {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
         "metadata":{"name":"php-apache","creationTimestamp":"%s"},
         "spec":{"scaleTargetRef":{"kind":"Deployment","name":"php-apache"},"maxReplicas":10,"targetCPUUtilizationPercentage":50},
         "status":{"currentReplicas":2,"desiredReplicas":2,"currentCPUUtilizationPercentage":7}}""".formatted(Rows.CREATED_5M_AGO);
    assertThat(Rows.cells(V1, v1))
        .containsExactly("php-apache", "Deployment/php-apache", "cpu: 7%/50%", "<unset>", 10L, 2L, "5m");
  }
}

package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube 1.32's defaults of HorizontalPodAutoscalers ({@code pkg/apis/autoscaling/v2/defaults.go}
 * and {@code v1/defaults.go}): both versions default {@code spec.minReplicas} to 1; v2 also
 * gives an HPA without metrics a CPU utilization target of 80% and fills each side of a given
 * {@code spec.behavior} with kube's rules (scale up: no stabilization window, policy {@code Max}
 * of 4 pods and 100% per 15 s; scale down: policy {@code Max} of 100% per 15 s and no window,
 * which the controller's flag decides). A rule's field given is kept; {@code policies} is taken
 * whole. v1 gets its CPU target in conversion ({@link HorizontalPodAutoscalerConversion}),
 * where the metrics kept in annotations are seen. Stateless.
 */
public final class HorizontalPodAutoscalerDefaults {

  /** kube's {@code autoscaling.DefaultCPUUtilization}. */
  static final int DEFAULT_CPU_UTILIZATION = 80;

  private HorizontalPodAutoscalerDefaults() {
  }

  /** kube's {@code v1.SetDefaults_HorizontalPodAutoscaler}: {@code spec.minReplicas} 1. */
  public static void v1(ObjectNode hpa) {
    minReplicas(hpa);
  }

  /** kube's {@code v2.SetDefaults_HorizontalPodAutoscaler} and its behavior defaults. */
  public static void v2(ObjectNode hpa) {
    ObjectNode spec = minReplicas(hpa);
    if (spec == null) {
      return;
    }
    JsonNode metrics = spec.get("metrics");
    if (metrics == null || metrics.isNull() || metrics.isArray() && metrics.isEmpty()) {
      spec.putArray("metrics").add(cpuUtilization(DEFAULT_CPU_UTILIZATION));
    }
    if (spec.get("behavior") instanceof ObjectNode behavior) {
      behavior.set("scaleUp", rules(behavior.get("scaleUp"), 0, true));
      behavior.set("scaleDown", rules(behavior.get("scaleDown"), null, false));
    }
  }

  /** A v2 metric: the Resource cpu at {@code percent} average utilization. */
  static ObjectNode cpuUtilization(int percent) {
    ObjectNode metric = HorizontalPodAutoscalerConversion.MAPPER.createObjectNode().put("type", "Resource");
    ObjectNode resource = metric.putObject("resource").put("name", "cpu");
    resource.putObject("target").put("type", "Utilization").put("averageUtilization", percent);
    return metric;
  }

  private static ObjectNode minReplicas(ObjectNode hpa) {
    JsonNode s = hpa.get("spec");
    ObjectNode spec = s instanceof ObjectNode o ? o : s == null || s.isNull() ? hpa.putObject("spec") : null;
    if (spec != null && (!spec.has("minReplicas") || spec.get("minReplicas").isNull())) {
      spec.put("minReplicas", 1);
    }
    return spec;
  }

  /** kube's {@code GenerateHPAScaleUpRules}/{@code ...ScaleDownRules}: the defaults, with what {@code given} sets. */
  private static JsonNode rules(JsonNode given, Integer window, boolean up) {
    if (given != null && !given.isNull() && !given.isObject()) {
      return given; // left for validation
    }
    ObjectNode rules = HorizontalPodAutoscalerConversion.MAPPER.createObjectNode();
    if (window != null) {
      rules.put("stabilizationWindowSeconds", window);
    }
    rules.put("selectPolicy", "Max");
    ArrayNode policies = rules.putArray("policies");
    if (up) {
      policies.addObject().put("type", "Pods").put("value", 4).put("periodSeconds", 15);
    }
    policies.addObject().put("type", "Percent").put("value", 100).put("periodSeconds", 15);
    if (given instanceof ObjectNode g) {
      for (String field : new String[] {"selectPolicy", "stabilizationWindowSeconds", "policies"}) {
        JsonNode v = g.get(field);
        if (v != null && !v.isNull()) {
          rules.set(field, v.deepCopy());
        }
      }
    }
    return rules;
  }
}

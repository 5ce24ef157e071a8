package io.listwatch.apiserver.registry;

import static io.listwatch.apiserver.registry.HorizontalPodAutoscalerMetricConversion.copyNonNull;
import static io.listwatch.apiserver.registry.HorizontalPodAutoscalerMetricConversion.orNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * HorizontalPodAutoscalers' conversion between autoscaling/v1 and autoscaling/v2, the storage
 * version (kube 1.32's {@code pkg/apis/autoscaling/v1/conversion.go}, through the internal type,
 * which v2 mirrors). v1 knows one metric, {@code spec.targetCPUUtilizationPercentage} (a
 * Resource cpu metric with a Utilization target) and {@code status.currentCPUUtilizationPercentage};
 * everything else of v2 rides in v1 annotations, as kube's do ({@link HorizontalPodAutoscalerMetricConversion}
 * converts each metric):
 * <ul>
 *   <li>{@value #METRICS}: the other metrics, in v1's form ({@code metricName}, {@code targetValue}, ...);
 *   <li>{@value #CURRENT_METRICS}: all of {@code status.currentMetrics}, in v1's form;
 *   <li>{@value #CONDITIONS}: {@code status.conditions};
 *   <li>{@value #BEHAVIOR}: {@code spec.behavior}, as kube's internal type marshals (Go field names).
 * </ul>
 * v1 to v2 reads the annotations back (a malformed one is ignored, as kube ignores it) and drops
 * them; an HPA with no metric at all gets kube's CPU target of 80%. v2 objects never keep these
 * annotations. Each served version has its instance: {@link #V2} (the storage version: applies
 * v2's defaults on read, as kube's decoder does) and {@link #V1}. Stateless; thread-safe.
 */
public final class HorizontalPodAutoscalerConversion implements VersionConversion {

  /** kube's {@code autoscaling.MetricSpecsAnnotation}. */
  public static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";
  /** kube's {@code autoscaling.MetricStatusesAnnotation}. */
  public static final String CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";
  /** kube's {@code autoscaling.HorizontalPodAutoscalerConditionsAnnotation}. */
  public static final String CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";
  /** kube's {@code autoscaling.BehaviorSpecsAnnotation}. */
  public static final String BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";

  static final String V1_API = "autoscaling/v1";
  static final String V2_API = "autoscaling/v2";
  static final ObjectMapper MAPPER = io.listwatch.api.JsonLimits.mapper();
  private static final List<String> ROUND_TRIP = List.of(METRICS, BEHAVIOR, CURRENT_METRICS, CONDITIONS);

  /** autoscaling/v2, the storage version. */
  public static final HorizontalPodAutoscalerConversion V2 = new HorizontalPodAutoscalerConversion(false);
  /** autoscaling/v1. */
  public static final HorizontalPodAutoscalerConversion V1 = new HorizontalPodAutoscalerConversion(true);

  private final boolean v1;

  private HorizontalPodAutoscalerConversion(boolean v1) {
    this.v1 = v1;
  }

  @Override
  public ObjectNode toServed(ObjectNode stored) {
    boolean isV1 = V1_API.equals(stored.path("apiVersion").asText());
    if (v1) {
      return isV1 ? stored : toV1(stored);
    }
    ObjectNode v2 = isV1 ? toV2(stored) : stored;
    HorizontalPodAutoscalerDefaults.v2(v2);
    return v2;
  }

  @Override
  public ObjectNode toStorage(ObjectNode served) {
    return V1_API.equals(served.path("apiVersion").asText()) ? toV2(served) : served;
  }

  /** The v2 form of a v1 object, a new object ({@code v1} is not changed); a v2 object is copied. */
  public static ObjectNode toV2(ObjectNode v1) {
    ObjectNode out = v1.deepCopy();
    if (!V1_API.equals(v1.path("apiVersion").asText())) {
      return out;
    }
    out.put("apiVersion", V2_API);
    ObjectNode annotations = out.path("metadata").get("annotations") instanceof ObjectNode a ? a : null;
    ObjectNode spec = object(out, "spec");
    JsonNode cpu = spec.remove("targetCPUUtilizationPercentage");
    ArrayNode metrics = MAPPER.createArrayNode();
    JsonNode other = annotation(annotations, METRICS);
    if (other != null && other.isArray()) {
      other.forEach(m -> metrics.add(HorizontalPodAutoscalerMetricConversion.metricSpecToV2(m)));
    }
    if (cpu != null && cpu.isNumber()) {
      metrics.add(HorizontalPodAutoscalerDefaults.cpuUtilization(cpu.intValue()));
    }
    if (metrics.isEmpty()) {
      metrics.add(HorizontalPodAutoscalerDefaults.cpuUtilization(HorizontalPodAutoscalerDefaults.DEFAULT_CPU_UTILIZATION));
    }
    spec.set("metrics", metrics);
    JsonNode behavior = annotation(annotations, BEHAVIOR);
    if (behavior != null && behavior.isObject()) {
      ObjectNode b = behaviorToV2(behavior);
      if (!b.isEmpty()) {
        spec.set("behavior", b);
      }
    }
    JsonNode statusNode = out.get("status");
    if (statusNode instanceof ObjectNode status) {
      JsonNode currentCpu = status.remove("currentCPUUtilizationPercentage");
      if (currentCpu != null && currentCpu.isNumber()) {
        ObjectNode current = status.putArray("currentMetrics").addObject().put("type", "Resource");
        current.putObject("resource").put("name", "cpu").putObject("current")
            .put("averageUtilization", currentCpu.intValue());
      }
    }
    JsonNode currentMetrics = annotation(annotations, CURRENT_METRICS);
    if (currentMetrics != null && currentMetrics.isArray()) {
      ArrayNode converted = object(out, "status").putArray("currentMetrics");
      currentMetrics.forEach(m -> converted.add(HorizontalPodAutoscalerMetricConversion.metricStatusToV2(m)));
    }
    JsonNode conditions = annotation(annotations, CONDITIONS);
    if (conditions != null && conditions.isArray()) {
      object(out, "status").set("conditions", conditions);
    }
    dropRoundTripAnnotations(out);
    return out;
  }

  /** The v1 form of a v2 object, a new object ({@code v2} is not changed); a v1 object is copied. */
  public static ObjectNode toV1(ObjectNode v2) {
    ObjectNode out = v2.deepCopy();
    if (V1_API.equals(v2.path("apiVersion").asText())) {
      return out;
    }
    out.put("apiVersion", V1_API);
    dropRoundTripAnnotations(out);
    ObjectNode spec = object(out, "spec");
    JsonNode metrics = spec.remove("metrics");
    JsonNode behavior = spec.remove("behavior");
    ArrayNode other = MAPPER.createArrayNode();
    boolean cpuSeen = false;
    for (JsonNode m : elements(metrics)) {
      boolean cpu = isCpu(m);
      JsonNode utilization = m.path("resource").path("target").path("averageUtilization");
      if (cpu && !cpuSeen) {
        cpuSeen = true;
        if (utilization.isNumber()) {
          spec.put("targetCPUUtilizationPercentage", utilization.intValue());
        }
      }
      if (!(cpu && utilization.isNumber())) {
        other.add(HorizontalPodAutoscalerMetricConversion.metricSpecToV1(m));
      }
    }
    ObjectNode annotations = MAPPER.createObjectNode();
    if (!other.isEmpty()) {
      annotations.put(METRICS, json(other));
    }
    JsonNode statusNode = out.get("status");
    if (statusNode instanceof ObjectNode status) {
      JsonNode currentMetrics = status.remove("currentMetrics");
      JsonNode conditions = status.remove("conditions");
      ArrayNode current = MAPPER.createArrayNode();
      for (JsonNode m : elements(currentMetrics)) {
        JsonNode utilization = m.path("resource").path("current").path("averageUtilization");
        if (isCpu(m) && utilization.isNumber()) {
          status.put("currentCPUUtilizationPercentage", utilization.intValue());
        }
        current.add(HorizontalPodAutoscalerMetricConversion.metricStatusToV1(m));
      }
      if (!current.isEmpty()) {
        annotations.put(CURRENT_METRICS, json(current));
      }
      if (conditions != null && conditions.isArray() && !conditions.isEmpty()) {
        annotations.put(CONDITIONS, json(conditions));
      }
    }
    if (behavior != null && behavior.isObject()) {
      annotations.put(BEHAVIOR, json(behaviorToInternal(behavior)));
    }
    if (!annotations.isEmpty()) {
      ObjectNode meta = object(out, "metadata");
      ObjectNode existing = meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
      existing.setAll(annotations);
    }
    return out;
  }

  /** Whether a v2 metric (spec or status) is the Resource cpu. */
  private static boolean isCpu(JsonNode m) {
    return "Resource".equals(m.path("type").asText()) && "cpu".equals(m.path("resource").path("name").asText());
  }

  /** kube's internal HorizontalPodAutoscalerBehavior as Go marshals it: field names capitalized, nil as null. */
  private static ObjectNode behaviorToInternal(JsonNode behavior) {
    ObjectNode out = MAPPER.createObjectNode();
    for (String side : new String[] {"scaleUp", "scaleDown"}) {
      JsonNode rules = behavior.get(side);
      String name = capitalized(side);
      if (rules == null || !rules.isObject()) {
        out.putNull(name);
        continue;
      }
      ObjectNode r = out.putObject(name);
      r.set("StabilizationWindowSeconds", orNull(rules.get("stabilizationWindowSeconds")));
      r.set("SelectPolicy", orNull(rules.get("selectPolicy")));
      JsonNode policies = rules.get("policies");
      if (policies == null || !policies.isArray()) {
        r.putNull("Policies");
      } else {
        ArrayNode p = r.putArray("Policies");
        for (JsonNode policy : policies) {
          p.addObject().put("Type", policy.path("type").asText(""))
              .put("Value", policy.path("value").asInt(0))
              .put("PeriodSeconds", policy.path("periodSeconds").asInt(0));
        }
      }
    }
    return out;
  }

  /** The v2 behavior of the annotation (Go's JSON decoding matches field names case-insensitively). */
  private static ObjectNode behaviorToV2(JsonNode internal) {
    ObjectNode out = MAPPER.createObjectNode();
    for (String side : new String[] {"scaleUp", "scaleDown"}) {
      JsonNode rules = field(internal, side);
      if (rules == null || !rules.isObject()) {
        continue;
      }
      ObjectNode r = out.putObject(side);
      copyNonNull(field(rules, "stabilizationWindowSeconds"), r, "stabilizationWindowSeconds");
      copyNonNull(field(rules, "selectPolicy"), r, "selectPolicy");
      JsonNode policies = field(rules, "policies");
      if (policies != null && policies.isArray()) {
        ArrayNode p = r.putArray("policies");
        for (JsonNode policy : policies) {
          ObjectNode q = p.addObject();
          copyNonNull(field(policy, "type"), q, "type");
          copyNonNull(field(policy, "value"), q, "value");
          copyNonNull(field(policy, "periodSeconds"), q, "periodSeconds");
        }
      }
    }
    return out;
  }

  private static JsonNode field(JsonNode obj, String name) {
    for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equalsIgnoreCase(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static Iterable<JsonNode> elements(JsonNode array) {
    return array != null && array.isArray() ? array : List.of();
  }

  private static ObjectNode object(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
  }

  /** An annotation's JSON value, or null when absent or not JSON (kube moves only well-formed data). */
  private static JsonNode annotation(ObjectNode annotations, String key) {
    if (annotations == null || !annotations.path(key).isTextual()) {
      return null;
    }
    try {
      return MAPPER.readTree(annotations.get(key).asText());
    } catch (IOException e) {
      return null;
    }
  }

  /** kube's {@code DropRoundTripHorizontalPodAutoscalerAnnotations}; an emptied map goes too. */
  public static void dropRoundTripAnnotations(ObjectNode obj) {
    if (obj.path("metadata").get("annotations") instanceof ObjectNode annotations) {
      boolean had = false;
      for (String key : ROUND_TRIP) {
        had |= annotations.remove(key) != null;
      }
      if (had && annotations.isEmpty()) {
        ((ObjectNode) obj.get("metadata")).remove("annotations");
      }
    }
  }

  private static String json(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

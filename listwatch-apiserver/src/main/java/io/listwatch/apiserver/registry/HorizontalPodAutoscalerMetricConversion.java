package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One HorizontalPodAutoscaler metric (a {@code spec.metrics} entry or a
 * {@code status.currentMetrics} one) between autoscaling/v1's form, which v1 keeps in its
 * annotations ({@code metricName}, {@code targetValue}, {@code targetAverageValue},
 * {@code currentAverageUtilization}, ...), and v2's ({@code metric}, {@code target},
 * {@code current}), as kube 1.32's v1 conversion functions map them: a v1 Object target is a
 * Value target unless it has an average, an External one an AverageValue target unless it has a
 * value, a Resource one Utilization when it has one; a quantity v1 holds in a non-pointer field is
 * Go's zero {@code "0"} when v2 has none. Part of {@link HorizontalPodAutoscalerConversion}.
 * Stateless.
 */
final class HorizontalPodAutoscalerMetricConversion {

  private static final ObjectMapper MAPPER = HorizontalPodAutoscalerConversion.MAPPER;

  private HorizontalPodAutoscalerMetricConversion() {
  }

  static ObjectNode metricSpecToV1(JsonNode m) {
    ObjectNode out = MAPPER.createObjectNode().put("type", m.path("type").asText(""));
    JsonNode object = m.get("object");
    if (object != null && object.isObject()) {
      JsonNode target = object.path("target");
      ObjectNode o = out.putObject("object");
      o.set("target", reference(object.path("describedObject")));
      o.put("metricName", object.path("metric").path("name").asText(""));
      o.set("targetValue", quantity(target.get("value")));
      copy(object.path("metric"), "selector", o, "selector");
      copy(target, "averageValue", o, "averageValue");
    }
    JsonNode pods = m.get("pods");
    if (pods != null && pods.isObject()) {
      ObjectNode p = out.putObject("pods");
      p.put("metricName", pods.path("metric").path("name").asText(""));
      p.set("targetAverageValue", quantity(pods.path("target").get("averageValue")));
      copy(pods.path("metric"), "selector", p, "selector");
    }
    resourceSpecToV1(m.get("resource"), out, "resource");
    resourceSpecToV1(m.get("containerResource"), out, "containerResource");
    JsonNode external = m.get("external");
    if (external != null && external.isObject()) {
      ObjectNode e = out.putObject("external");
      e.put("metricName", external.path("metric").path("name").asText(""));
      copy(external.path("metric"), "selector", e, "metricSelector");
      copy(external.path("target"), "value", e, "targetValue");
      copy(external.path("target"), "averageValue", e, "targetAverageValue");
    }
    return out;
  }

  private static void resourceSpecToV1(JsonNode resource, ObjectNode out, String field) {
    if (resource == null || !resource.isObject()) {
      return;
    }
    ObjectNode r = out.putObject(field).put("name", resource.path("name").asText(""));
    copy(resource.path("target"), "averageUtilization", r, "targetAverageUtilization");
    copy(resource.path("target"), "averageValue", r, "targetAverageValue");
    if (field.equals("containerResource")) {
      r.put("container", resource.path("container").asText(""));
    }
  }

  static ObjectNode metricSpecToV2(JsonNode m) {
    ObjectNode out = MAPPER.createObjectNode().put("type", m.path("type").asText(""));
    JsonNode object = m.get("object");
    if (object != null && object.isObject()) {
      ObjectNode o = out.putObject("object");
      o.set("describedObject", reference(object.path("target")));
      ObjectNode target = o.putObject("target")
          .put("type", hasValue(object.get("averageValue")) ? "AverageValue" : "Value");
      target.set("value", quantity(object.get("targetValue")));
      copy(object, "averageValue", target, "averageValue");
      metric(o, object.path("metricName"), object.get("selector"));
    }
    JsonNode pods = m.get("pods");
    if (pods != null && pods.isObject()) {
      ObjectNode p = out.putObject("pods");
      metric(p, pods.path("metricName"), pods.get("selector"));
      p.putObject("target").put("type", "AverageValue").set("averageValue", quantity(pods.get("targetAverageValue")));
    }
    resourceSpecToV2(m.get("resource"), out, "resource");
    resourceSpecToV2(m.get("containerResource"), out, "containerResource");
    JsonNode external = m.get("external");
    if (external != null && external.isObject()) {
      ObjectNode e = out.putObject("external");
      metric(e, external.path("metricName"), external.get("metricSelector"));
      ObjectNode target = e.putObject("target")
          .put("type", hasValue(external.get("targetValue")) ? "Value" : "AverageValue");
      copy(external, "targetValue", target, "value");
      copy(external, "targetAverageValue", target, "averageValue");
    }
    return out;
  }

  private static void resourceSpecToV2(JsonNode resource, ObjectNode out, String field) {
    if (resource == null || !resource.isObject()) {
      return;
    }
    ObjectNode r = out.putObject(field).put("name", resource.path("name").asText(""));
    if (field.equals("containerResource")) {
      r.put("container", resource.path("container").asText(""));
    }
    ObjectNode target = r.putObject("target")
        .put("type", hasValue(resource.get("targetAverageUtilization")) ? "Utilization" : "AverageValue");
    copy(resource, "targetAverageUtilization", target, "averageUtilization");
    copy(resource, "targetAverageValue", target, "averageValue");
  }

  static ObjectNode metricStatusToV1(JsonNode m) {
    ObjectNode out = MAPPER.createObjectNode().put("type", m.path("type").asText(""));
    JsonNode object = m.get("object");
    if (object != null && object.isObject()) {
      ObjectNode o = out.putObject("object");
      o.set("target", reference(object.path("describedObject")));
      o.put("metricName", object.path("metric").path("name").asText(""));
      o.set("currentValue", quantity(object.path("current").get("value")));
      copy(object.path("metric"), "selector", o, "selector");
      copy(object.path("current"), "averageValue", o, "averageValue");
    }
    JsonNode pods = m.get("pods");
    if (pods != null && pods.isObject()) {
      ObjectNode p = out.putObject("pods");
      p.put("metricName", pods.path("metric").path("name").asText(""));
      p.set("currentAverageValue", quantity(pods.path("current").get("averageValue")));
      copy(pods.path("metric"), "selector", p, "selector");
    }
    for (String field : new String[] {"resource", "containerResource"}) {
      JsonNode resource = m.get(field);
      if (resource != null && resource.isObject()) {
        ObjectNode r = out.putObject(field).put("name", resource.path("name").asText(""));
        copy(resource.path("current"), "averageUtilization", r, "currentAverageUtilization");
        r.set("currentAverageValue", quantity(resource.path("current").get("averageValue")));
        if (field.equals("containerResource")) {
          r.put("container", resource.path("container").asText(""));
        }
      }
    }
    JsonNode external = m.get("external");
    if (external != null && external.isObject()) {
      ObjectNode e = out.putObject("external");
      e.put("metricName", external.path("metric").path("name").asText(""));
      copy(external.path("metric"), "selector", e, "metricSelector");
      e.set("currentValue", quantity(external.path("current").get("value")));
      copy(external.path("current"), "averageValue", e, "currentAverageValue");
    }
    return out;
  }

  static ObjectNode metricStatusToV2(JsonNode m) {
    ObjectNode out = MAPPER.createObjectNode().put("type", m.path("type").asText(""));
    JsonNode object = m.get("object");
    if (object != null && object.isObject()) {
      ObjectNode o = out.putObject("object");
      metric(o, object.path("metricName"), object.get("selector"));
      ObjectNode current = o.putObject("current");
      current.set("value", quantity(object.get("currentValue")));
      copy(object, "averageValue", current, "averageValue");
      o.set("describedObject", reference(object.path("target")));
    }
    JsonNode pods = m.get("pods");
    if (pods != null && pods.isObject()) {
      ObjectNode p = out.putObject("pods");
      metric(p, pods.path("metricName"), pods.get("selector"));
      p.putObject("current").set("averageValue", quantity(pods.get("currentAverageValue")));
    }
    for (String field : new String[] {"resource", "containerResource"}) {
      JsonNode resource = m.get(field);
      if (resource != null && resource.isObject()) {
        ObjectNode r = out.putObject(field).put("name", resource.path("name").asText(""));
        ObjectNode current = r.putObject("current");
        current.set("averageValue", quantity(resource.get("currentAverageValue")));
        copy(resource, "currentAverageUtilization", current, "averageUtilization");
        if (field.equals("containerResource")) {
          r.put("container", resource.path("container").asText(""));
        }
      }
    }
    JsonNode external = m.get("external");
    if (external != null && external.isObject()) {
      ObjectNode e = out.putObject("external");
      metric(e, external.path("metricName"), external.get("metricSelector"));
      ObjectNode current = e.putObject("current");
      current.set("value", quantity(external.get("currentValue")));
      copy(external, "currentAverageValue", current, "averageValue");
    }
    return out;
  }


  private static void metric(ObjectNode parent, JsonNode name, JsonNode selector) {
    ObjectNode metric = parent.putObject("metric").put("name", name.asText(""));
    if (selector != null && !selector.isNull()) {
      metric.set("selector", selector.deepCopy());
    }
  }

  private static ObjectNode reference(JsonNode ref) {
    ObjectNode out = MAPPER.createObjectNode()
        .put("kind", ref.path("kind").asText("")).put("name", ref.path("name").asText(""));
    if (!ref.path("apiVersion").asText("").isEmpty()) {
      out.put("apiVersion", ref.path("apiVersion").asText());
    }
    return out;
  }

  /** A quantity a non-pointer Go field holds: the value given, or Go's zero quantity "0". */
  private static JsonNode quantity(JsonNode q) {
    return hasValue(q) ? q.deepCopy() : MAPPER.getNodeFactory().textNode("0");
  }

  private static boolean hasValue(JsonNode v) {
    return v != null && !v.isNull() && !v.isMissingNode();
  }

  static JsonNode orNull(JsonNode v) {
    return hasValue(v) ? v.deepCopy() : MAPPER.getNodeFactory().nullNode();
  }

  private static void copy(JsonNode from, String field, ObjectNode to, String as) {
    copyNonNull(from.get(field), to, as);
  }

  static void copyNonNull(JsonNode v, ObjectNode to, String as) {
    if (hasValue(v)) {
      to.set(as, v.deepCopy());
    }
  }

}

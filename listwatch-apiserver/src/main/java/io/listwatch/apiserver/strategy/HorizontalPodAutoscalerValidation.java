package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube 1.32's {@code pkg/apis/autoscaling/validation} for HorizontalPodAutoscalers, on the v2
 * form (kube's internal type): the spec ({@code minReplicas} not below the lower bound,
 * {@code maxReplicas} at least 1 and not below {@code minReplicas}, {@code scaleTargetRef}'s kind
 * and name path segments), each metric (one source matching its {@code type}; the source's
 * metric name, target type and values), the behavior (stabilization windows 0..3600 s, select
 * policy, at least one policy of type Pods or Percent with a positive value and a period of
 * 1..1800 s), and on {@code /status} the replica counts not negative. Bad quantities are printed
 * as the client wrote them (kube prints the Go struct of its Quantity). Stateless.
 */
final class HorizontalPodAutoscalerValidation {

  private static final List<String> METRIC_SOURCE_TYPES =
      List.of("ContainerResource", "External", "Object", "Pods", "Resource");
  private static final List<String> SELECT_POLICIES = List.of("Disabled", "Max", "Min");
  private static final List<String> POLICY_TYPES = List.of("Percent", "Pods");
  private static final int MAX_PERIOD_SECONDS = 1800;
  private static final int MAX_STABILIZATION_WINDOW_SECONDS = 3600;

  private HorizontalPodAutoscalerValidation() {
  }

  /**
   * kube's {@code validateHorizontalPodAutoscalerSpec}.
   *
   * @param minReplicasLowerBound 1; 0 on an update of an HPA that already has
   *     {@code minReplicas: 0} (kube's HPAScaleToZero gate is off in 1.32)
   */
  static void spec(JsonNode spec, int minReplicasLowerBound, List<Status.Cause> errors) {
    JsonNode min = spec.path("minReplicas");
    long max = spec.path("maxReplicas").asLong(0);
    if (min.isIntegralNumber() && min.longValue() < minReplicasLowerBound) {
      errors.add(FieldErrors.invalid("spec.minReplicas", min.longValue(),
          "must be greater than or equal to " + minReplicasLowerBound));
    }
    if (max < 1) {
      errors.add(FieldErrors.invalid("spec.maxReplicas", max, "must be greater than 0"));
    }
    if (min.isIntegralNumber() && max < min.longValue()) {
      errors.add(FieldErrors.invalid("spec.maxReplicas", max, "must be greater than or equal to `minReplicas`"));
    }
    crossVersionObjectReference(spec.path("scaleTargetRef"), "spec.scaleTargetRef", errors);
    boolean objectOrExternal = false;
    JsonNode metrics = spec.path("metrics");
    for (int i = 0; i < metrics.size(); i++) {
      metricSpec(metrics.get(i), "spec.metrics[" + i + "]", errors);
      String type = metrics.get(i).path("type").asText("");
      objectOrExternal |= type.equals("Object") || type.equals("External");
    }
    if (min.isIntegralNumber() && min.longValue() == 0 && !objectOrExternal) {
      errors.add(FieldErrors.forbidden("spec.metrics",
          "must specify at least one Object or External metric to support scaling to zero replicas"));
    }
    JsonNode behavior = spec.path("behavior");
    scalingRules(behavior.path("scaleUp"), "spec.behavior.scaleUp", errors);
    scalingRules(behavior.path("scaleDown"), "spec.behavior.scaleDown", errors);
  }

  /** kube's {@code ValidateHorizontalPodAutoscalerStatusUpdate}'s own part. */
  static void status(JsonNode status, List<Status.Cause> errors) {
    NumericFields.nonNegative(status.path("currentReplicas"), "status.currentReplicas", errors);
    NumericFields.nonNegative(status.path("desiredReplicas"), "status.desiredReplicas", errors);
  }

  /** kube's {@code ValidateCrossVersionObjectReference}. */
  private static void crossVersionObjectReference(JsonNode ref, String path, List<Status.Cause> errors) {
    for (String field : new String[] {"kind", "name"}) {
      String value = ref.path(field).asText("");
      if (value.isEmpty()) {
        errors.add(FieldErrors.required(path + "." + field, ""));
      } else {
        pathSegment(value, path + "." + field, errors);
      }
    }
  }

  private static void pathSegment(String value, String path, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isValidPathSegmentName(value)) {
      errors.add(FieldErrors.invalid(path, value, msg));
    }
  }

  /** kube's {@code validateMetricSpec}. */
  private static void metricSpec(JsonNode spec, String path, List<Status.Cause> errors) {
    String type = spec.path("type").asText("");
    if (type.isEmpty()) {
      errors.add(FieldErrors.required(path + ".type", "must specify a metric source type"));
    }
    if (!METRIC_SOURCE_TYPES.contains(type)) {
      errors.add(FieldErrors.notSupported(path + ".type", type, METRIC_SOURCE_TYPES));
    }
    Set<String> present = new TreeSet<>();
    for (String source : new String[] {"object", "external", "pods", "resource", "containerResource"}) {
      if (NumericFields.given(spec.path(source))) {
        present.add(source);
        if (present.size() == 1) {
          source(source, spec.path(source), path + "." + source, errors);
        }
      }
    }
    String expected = switch (type) {
      case "Object" -> "object";
      case "Pods" -> "pods";
      case "Resource" -> "resource";
      case "External" -> "external";
      case "ContainerResource" -> "containerResource";
      default -> "";
    };
    if (expected.isEmpty()) {
      errors.add(FieldErrors.notSupported(path + ".type", type, METRIC_SOURCE_TYPES));
    } else if (!present.contains(expected)) {
      errors.add(FieldErrors.required(path + "." + expected, "must populate information for the given metric source"));
    }
    if (present.size() != 1) {
      present.remove(expected);
      for (String other : present) {
        errors.add(FieldErrors.forbidden(path + "." + other, "must populate the given metric source only"));
      }
    }
  }

  private static void source(String source, JsonNode src, String path, List<Status.Cause> errors) {
    JsonNode target = src.path("target");
    String targetPath = path + ".target";
    boolean value = NumericFields.given(target.path("value"));
    boolean averageValue = NumericFields.given(target.path("averageValue"));
    switch (source) {
      case "object" -> {
        crossVersionObjectReference(src.path("describedObject"), path + ".describedObject", errors);
        metricIdentifier(src.path("metric"), path + ".metric", errors);
        metricTarget(target, targetPath, errors);
        if (!value && !averageValue) {
          errors.add(FieldErrors.required(targetPath + ".averageValue", "must set either a target value or averageValue"));
        }
      }
      case "external" -> {
        metricIdentifier(src.path("metric"), path + ".metric", errors);
        metricTarget(target, targetPath, errors);
        if (!value && !averageValue) {
          errors.add(FieldErrors.required(targetPath + ".averageValue",
              "must set either a target value for metric or a per-pod target"));
        }
        if (value && averageValue) {
          errors.add(FieldErrors.forbidden(targetPath + ".value",
              "may not set both a target value for metric and a per-pod target"));
        }
      }
      case "pods" -> {
        metricIdentifier(src.path("metric"), path + ".metric", errors);
        metricTarget(target, targetPath, errors);
        if (!averageValue) {
          errors.add(FieldErrors.required(targetPath + ".averageValue", "must specify a positive target averageValue"));
        }
      }
      default -> resourceSource(source.equals("containerResource"), src, path, errors);
    }
  }

  /** kube's {@code validateResourceSource} and {@code validateContainerResourceSource}. */
  private static void resourceSource(boolean container, JsonNode src, String path, List<Status.Cause> errors) {
    String name = src.path("name").asText("");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", "must specify a resource name"));
    } else if (container) {
      Quantities.containerResourceName(name, path + ".name", errors);
    }
    if (container) {
      String containerName = src.path("container").asText("");
      if (containerName.isEmpty()) {
        errors.add(FieldErrors.required(path + ".container", "must specify a container"));
      } else {
        for (String msg : NameSyntax.isDns1123Label(containerName)) {
          errors.add(FieldErrors.invalid(path + ".container", containerName, msg));
        }
      }
    }
    JsonNode target = src.path("target");
    metricTarget(target, path + ".target", errors);
    boolean utilization = NumericFields.given(target.path("averageUtilization"));
    boolean averageValue = NumericFields.given(target.path("averageValue"));
    if (!utilization && !averageValue) {
      errors.add(FieldErrors.required(path + ".target.averageUtilization",
          "must set either a target raw value or a target utilization"));
    }
    if (utilization && averageValue) {
      errors.add(FieldErrors.forbidden(path + ".target.averageValue",
          "may not set both a target raw value and a target utilization"));
    }
  }

  /** kube's {@code validateMetricTarget}. */
  private static void metricTarget(JsonNode target, String path, List<Status.Cause> errors) {
    String type = target.path("type").asText("");
    if (type.isEmpty()) {
      errors.add(FieldErrors.required(path + ".type", "must specify a metric target type"));
    }
    if (!List.of("Utilization", "Value", "AverageValue").contains(type)) {
      errors.add(FieldErrors.invalid(path + ".type", type, "must be either Utilization, Value, or AverageValue"));
    }
    for (String field : new String[] {"value", "averageValue"}) {
      JsonNode q = target.path(field);
      BigDecimal amount = NumericFields.given(q) ? Quantities.amount(q) : null;
      if (amount != null && amount.signum() != 1) {
        errors.add(FieldErrors.invalid(path + "." + field, q.asText(), "must be positive"));
      }
    }
    JsonNode utilization = target.path("averageUtilization");
    if (utilization.isIntegralNumber() && utilization.longValue() < 1) {
      errors.add(FieldErrors.invalid(path + ".averageUtilization", utilization.longValue(), "must be greater than 0"));
    }
  }

  /** kube's {@code validateMetricIdentifier}. */
  private static void metricIdentifier(JsonNode id, String path, List<Status.Cause> errors) {
    String name = id.path("name").asText("");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", "must specify a metric name"));
    } else {
      pathSegment(name, path + ".name", errors);
    }
  }

  /** kube's {@code validateScalingRules}, for a given side of {@code spec.behavior}. */
  private static void scalingRules(JsonNode rules, String path, List<Status.Cause> errors) {
    if (!rules.isObject()) {
      return;
    }
    JsonNode window = rules.path("stabilizationWindowSeconds");
    if (window.isIntegralNumber() && window.longValue() < 0) {
      errors.add(FieldErrors.invalid(path + ".stabilizationWindowSeconds", window.longValue(),
          "must be greater than or equal to zero"));
    }
    if (window.isIntegralNumber() && window.longValue() > MAX_STABILIZATION_WINDOW_SECONDS) {
      errors.add(FieldErrors.invalid(path + ".stabilizationWindowSeconds", window.longValue(),
          "must be less than or equal to " + MAX_STABILIZATION_WINDOW_SECONDS));
    }
    JsonNode select = rules.path("selectPolicy");
    if (NumericFields.given(select) && !SELECT_POLICIES.contains(select.asText(""))) {
      errors.add(FieldErrors.notSupported(path + ".selectPolicy", select.asText(""), SELECT_POLICIES));
    }
    JsonNode policies = rules.path("policies");
    if (policies.isEmpty()) {
      errors.add(FieldErrors.required(path + ".policies", "must specify at least one Policy"));
    }
    for (int i = 0; i < policies.size(); i++) {
      JsonNode policy = policies.get(i);
      String p = path + ".policies[" + i + "]";
      String type = policy.path("type").asText("");
      if (!POLICY_TYPES.contains(type)) {
        errors.add(FieldErrors.notSupported(p + ".type", type, POLICY_TYPES));
      }
      long value = policy.path("value").asLong(0);
      if (value <= 0) {
        errors.add(FieldErrors.invalid(p + ".value", value, "must be greater than zero"));
      }
      long period = policy.path("periodSeconds").asLong(0);
      if (period <= 0) {
        errors.add(FieldErrors.invalid(p + ".periodSeconds", period, "must be greater than zero"));
      }
      if (period > MAX_PERIOD_SECONDS) {
        errors.add(FieldErrors.invalid(p + ".periodSeconds", period, "must be less than or equal to " + MAX_PERIOD_SECONDS));
      }
    }
  }
}

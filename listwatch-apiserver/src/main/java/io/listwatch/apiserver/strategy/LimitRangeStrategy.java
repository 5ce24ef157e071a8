package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * LimitRanges (core/v1), kube's {@code ValidateLimitRange} (create and update alike): each of
 * {@code spec.limits} has a type (Pod, Container, PersistentVolumeClaim or a qualified name
 * with a domain), no type twice; resource names fit the type (containers' and pods' standard
 * or extended resources); a Pod limit has no {@code default} or {@code defaultRequest}; a
 * PersistentVolumeClaim limit has a min or max storage; per resource
 * {@code min <= defaultRequest <= default <= max}, {@code maxLimitRequestRatio >= 1} and at
 * most max/min; a resource that may not be overcommitted has {@code default == defaultRequest}.
 * Stateless.
 */
final class LimitRangeStrategy implements RestStrategy {

  private static final Set<String> TYPES = Set.of("Pod", "Container", "PersistentVolumeClaim");
  private static final List<String> FIELDS = List.of("max", "min", "default", "defaultRequest", "maxLimitRequestRatio");

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode limits = obj.path("spec").path("limits");
    Set<String> types = new HashSet<>();
    for (int i = 0; i < limits.size(); i++) {
      limit(limits.get(i), "spec.limits[" + i + "]", types, errors);
    }
  }

  private static void limit(JsonNode limit, String at, Set<String> types, List<Status.Cause> errors) {
    String type = limit.path("type").asText("");
    typeName(type, at + ".type", errors);
    if (!types.add(type)) {
      errors.add(FieldErrors.duplicate(at + ".type", type));
    }
    Set<String> keys = new LinkedHashSet<>();
    Map<String, Map<String, JsonNode>> byField = new HashMap<>();
    for (String field : FIELDS) {
      Map<String, JsonNode> values = new HashMap<>();
      byField.put(field, values);
      boolean isDefault = field.equals("default") || field.equals("defaultRequest");
      if (isDefault && type.equals("Pod")) {
        if (!limit.path(field).isEmpty()) {
          errors.add(FieldErrors.forbidden(at + "." + field, "may not be specified when `type` is 'Pod'"));
        }
        continue;
      }
      for (Map.Entry<String, JsonNode> e : limit.path(field).properties()) {
        String path = at + "." + field + "[" + e.getKey() + "]";
        if (type.equals("Pod") || type.equals("Container")) {
          Quantities.containerResourceName(e.getKey(), path, errors);
        } else {
          Quantities.resourceName(e.getKey(), path, errors);
        }
        keys.add(e.getKey());
        values.put(e.getKey(), e.getValue());
      }
    }
    if (type.equals("PersistentVolumeClaim") && !limit.path("min").has("storage") && !limit.path("max").has("storage")) {
      errors.add(FieldErrors.required(at + ".limits", "either minimum or maximum storage value is required, but neither was provided"));
    }
    for (String k : keys) {
      compare(k, at, byField, errors);
    }
  }

  private static void compare(String k, String at, Map<String, Map<String, JsonNode>> byField, List<Status.Cause> errors) {
    JsonNode min = byField.get("min").get(k);
    JsonNode max = byField.get("max").get(k);
    JsonNode def = byField.get("default").get(k);
    JsonNode req = byField.get("defaultRequest").get(k);
    JsonNode ratio = byField.get("maxLimitRequestRatio").get(k);
    String key = "[" + k + "]";
    if (greater(min, max)) {
      errors.add(FieldErrors.invalid(at + ".min" + key, text(min), "min value %s is greater than max value %s".formatted(text(min), text(max))));
    }
    if (greater(min, req)) {
      errors.add(FieldErrors.invalid(at + ".defaultRequest" + key, text(req),
          "min value %s is greater than default request value %s".formatted(text(min), text(req))));
    }
    if (greater(req, max)) {
      errors.add(FieldErrors.invalid(at + ".defaultRequest" + key, text(req),
          "default request value %s is greater than max value %s".formatted(text(req), text(max))));
    }
    if (greater(req, def)) {
      errors.add(FieldErrors.invalid(at + ".defaultRequest" + key, text(req),
          "default request value %s is greater than default limit value %s".formatted(text(req), text(def))));
    }
    if (greater(min, def)) {
      errors.add(FieldErrors.invalid(at + ".default" + key, text(min), "min value %s is greater than default value %s".formatted(text(min), text(def))));
    }
    if (greater(def, max)) {
      errors.add(FieldErrors.invalid(at + ".default" + key, text(max), "default value %s is greater than max value %s".formatted(text(def), text(max))));
    }
    BigDecimal r = ratio == null ? null : Quantities.amount(ratio);
    if (r != null && r.compareTo(BigDecimal.ONE) < 0) {
      errors.add(FieldErrors.invalid(at + ".maxLimitRequestRatio" + key, text(ratio), "ratio %s is less than 1".formatted(text(ratio))));
    }
    BigDecimal lo = min == null ? null : Quantities.amount(min);
    BigDecimal hi = max == null ? null : Quantities.amount(max);
    if (r != null && lo != null && hi != null && lo.signum() != 0) {
      // kube compares in milli-units: ratio rounded up to 1/1000, max/min as a float64 (%f: six decimals)
      double limit = hi.divide(lo, 20, RoundingMode.HALF_EVEN).doubleValue();
      if (r.setScale(3, RoundingMode.CEILING).doubleValue() > limit) {
        errors.add(FieldErrors.invalid(at + ".maxLimitRequestRatio" + key, text(ratio),
            "ratio %s is greater than max/min = %s".formatted(text(ratio), String.format(java.util.Locale.ROOT, "%f", limit))));
      }
    }
    if (!Quantities.overcommitAllowed(k) && def != null && req != null && !equal(def, req)) {
      errors.add(FieldErrors.invalid(at + ".defaultRequest" + key, text(req),
          "default value %s must equal to defaultRequest value %s in %s".formatted(text(def), text(req), k)));
    }
  }

  /** kube's {@code validateLimitRangeTypeName}. */
  private static void typeName(String type, String path, List<Status.Cause> errors) {
    List<String> msgs = NameSyntax.isQualifiedName(type);
    for (String msg : msgs) {
      errors.add(FieldErrors.invalid(path, type, msg));
    }
    if (msgs.isEmpty() && !type.contains("/") && !TYPES.contains(type)) {
      errors.add(FieldErrors.invalid(path, type, "must be a standard limit type or fully qualified"));
    }
  }

  private static boolean greater(JsonNode a, JsonNode b) {
    BigDecimal x = a == null ? null : Quantities.amount(a);
    BigDecimal y = b == null ? null : Quantities.amount(b);
    return x != null && y != null && x.compareTo(y) > 0;
  }

  private static boolean equal(JsonNode a, JsonNode b) {
    BigDecimal x = Quantities.amount(a);
    BigDecimal y = Quantities.amount(b);
    return x == null || y == null || x.compareTo(y) == 0;
  }

  private static String text(JsonNode q) {
    return q.asText();
  }
}

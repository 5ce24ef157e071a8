package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube's rules of a {@code metav1.LabelSelector} and of a label map
 * ({@code ValidateLabelSelector}, {@code ValidateLabelSelectorRequirement},
 * {@code ValidateLabels}), and what {@code LabelSelectorAsSelector} makes of a selector: whether
 * it matches a set of labels ({@link #matches}). A missing or null selector is kube's nil
 * selector, which selects nothing; a selector without requirements selects everything.
 * Stateless.
 */
final class LabelSelectorValidation {

  private static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

  private LabelSelectorValidation() {
  }

  /**
   * Adds the errors of {@code selector} at {@code path} (label values checked strictly);
   * returns whether it has none, i.e. whether kube's {@code LabelSelectorAsSelector} accepts it.
   * A missing or null selector has none.
   */
  static boolean validate(JsonNode selector, String path, List<Status.Cause> errors) {
    return validate(selector, path, false, errors);
  }

  /**
   * As {@link #validate(JsonNode, String, List)}; with {@code allowInvalidValues} (kube's
   * {@code AllowInvalidLabelValueInSelector}) the values of match expressions are not checked.
   */
  static boolean validate(JsonNode selector, String path, boolean allowInvalidValues, List<Status.Cause> errors) {
    int before = errors.size();
    if (!NumericFields.given(selector)) {
      return true;
    }
    labels(selector.path("matchLabels"), path + ".matchLabels", errors);
    JsonNode expressions = selector.path("matchExpressions");
    for (int i = 0; i < expressions.size(); i++) {
      requirement(expressions.get(i), path + ".matchExpressions[" + i + "]", allowInvalidValues, errors);
    }
    return errors.size() == before;
  }

  private static void requirement(JsonNode r, String path, boolean allowInvalidValues, List<Status.Cause> errors) {
    String operator = r.path("operator").asText("");
    JsonNode values = r.path("values");
    switch (operator) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errors.add(FieldErrors.required(path + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errors.add(FieldErrors.forbidden(path + ".values",
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      default -> errors.add(FieldErrors.invalid(path + ".operator", operator, "not a valid selector operator"));
    }
    labelName(r.path("key").asText(""), path + ".key", errors);
    for (int i = 0; i < values.size() && !allowInvalidValues; i++) {
      String value = values.get(i).asText("");
      for (String msg : NameSyntax.isValidLabelValue(value)) {
        errors.add(FieldErrors.invalid(path + ".values[" + i + "]", value, msg));
      }
    }
  }

  /** kube's {@code ValidateLabels}: each key a qualified name, each value a label value, reported at {@code path}. */
  static void labels(JsonNode labels, String path, List<Status.Cause> errors) {
    for (Map.Entry<String, JsonNode> label : sorted(labels).entrySet()) {
      labelName(label.getKey(), path, errors);
      String value = label.getValue().asText("");
      for (String msg : NameSyntax.isValidLabelValue(value)) {
        errors.add(FieldErrors.invalid(path, value, msg));
      }
    }
  }

  private static void labelName(String name, String path, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isQualifiedName(name)) {
      errors.add(FieldErrors.invalid(path, name, msg));
    }
  }

  /** Whether the selector is given but has neither labels nor expressions to match. */
  static boolean isEmpty(JsonNode selector) {
    return NumericFields.given(selector) && selector.path("matchLabels").isEmpty()
        && selector.path("matchExpressions").isEmpty();
  }

  /**
   * Whether the valid {@code selector} selects an object with {@code labels}: a missing or null
   * selector selects nothing, an empty one everything.
   */
  static boolean matches(JsonNode selector, JsonNode labels) {
    if (!NumericFields.given(selector)) {
      return false;
    }
    for (Map.Entry<String, JsonNode> want : selector.path("matchLabels").properties()) {
      if (!labels.has(want.getKey()) || !labels.get(want.getKey()).asText("").equals(want.getValue().asText(""))) {
        return false;
      }
    }
    for (JsonNode r : selector.path("matchExpressions")) {
      JsonNode value = labels.get(r.path("key").asText(""));
      boolean has = value != null && !value.isNull();
      boolean in = false;
      for (JsonNode v : r.path("values")) {
        in |= has && v.asText("").equals(value.asText(""));
      }
      boolean ok = switch (r.path("operator").asText("")) {
        case "In" -> in;
        case "NotIn" -> !in;
        case "Exists" -> has;
        default -> !has;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * The selector as kube's field errors print it (the generated {@code LabelSelector.String()}):
   * {@code &LabelSelector{MatchLabels:map[string]string{app: x,},MatchExpressions:[]LabelSelectorRequirement{},}}.
   */
  static Object shown(JsonNode selector) {
    if (!NumericFields.given(selector)) {
      return null;
    }
    StringBuilder b = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
    sorted(selector.path("matchLabels")).forEach((k, v) -> b.append(k).append(": ").append(v.asText("")).append(','));
    b.append("},MatchExpressions:[]LabelSelectorRequirement{");
    for (JsonNode r : selector.path("matchExpressions")) {
      List<String> values = new ArrayList<>();
      r.path("values").forEach(v -> values.add(v.asText("")));
      b.append("LabelSelectorRequirement{Key:").append(r.path("key").asText("")).append(",Operator:")
          .append(r.path("operator").asText("")).append(",Values:[").append(String.join(" ", values)).append("],},");
    }
    return new GoLiteral(b.append("},}").toString());
  }

  /** Whether two selectors are equal as kube's semantic equality sees them (absent and empty alike). */
  static boolean sameSelector(JsonNode a, JsonNode b) {
    if (!NumericFields.given(a) || !NumericFields.given(b)) {
      return NumericFields.given(a) == NumericFields.given(b);
    }
    return sorted(a.path("matchLabels")).equals(sorted(b.path("matchLabels")))
        && a.path("matchExpressions").equals(b.path("matchExpressions"))
        || a.path("matchExpressions").isEmpty() && b.path("matchExpressions").isEmpty()
        && sorted(a.path("matchLabels")).equals(sorted(b.path("matchLabels")));
  }

  private static Map<String, JsonNode> sorted(JsonNode map) {
    Map<String, JsonNode> sorted = new TreeMap<>();
    if (map.isObject()) {
      map.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
    }
    return sorted;
  }
}

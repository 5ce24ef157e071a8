package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Strconv;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a schema's {@code x-kubernetes-validations}: kube's
 * {@code apiextensions.ValidationRule}.
 *
 * <p>{@link #toString()} prints the rule as Go's {@code %#v} prints kube's struct, because that
 * is how kube shows the bad value of a rule that does not compile:
 * {@code apiextensions.ValidationRule{Rule:"self == true", Message:"", ...}}. A set reason or
 * optionalOldSelf is a pointer in Go and kube prints its address; it is printed here as the
 * pointed-to value instead.
 *
 * @param rule the CEL expression; {@code self} is the value at the rule's schema location
 * @param message the message shown when the rule evaluates to false, or ""
 * @param messageExpression a CEL expression giving that message, or ""
 * @param reason the Status cause reason of a failure ({@code FieldValueInvalid}, ...), or null
 * @param fieldPath the path of the reported field relative to the rule's location, or ""
 * @param optionalOldSelf whether the transition rule also runs when there is no old value, or
 *     null when unset
 */
public record ValidationRule(String rule, String message, String messageExpression,
    String reason, String fieldPath, Boolean optionalOldSelf) {

  /** The reasons kube accepts in {@code reason}, in the order kube lists them. */
  static final List<String> SUPPORTED_REASONS = List.of(
      "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired");

  /** The rules of a schema node's {@code x-kubernetes-validations}; empty when there are none. */
  static List<ValidationRule> of(JsonNode schema) {
    List<ValidationRule> out = new ArrayList<>();
    JsonNode list = schema.get("x-kubernetes-validations");
    if (list == null || !list.isArray()) {
      return out;
    }
    for (JsonNode r : list) {
      JsonNode oos = r.get("optionalOldSelf");
      out.add(new ValidationRule(text(r, "rule"), text(r, "message"),
          text(r, "messageExpression"), r.hasNonNull("reason") ? text(r, "reason") : null,
          text(r, "fieldPath"), oos != null && oos.isBoolean() ? oos.booleanValue() : null));
    }
    return out;
  }

  /** kube's {@code ruleErrorString}: the trimmed message, or else the trimmed rule. */
  String errorString() {
    return message.isEmpty() ? rule.strip() : message.strip();
  }

  /** kube's {@code ruleMessageOrDefault}: the message, or {@code failed rule: <rule>}. */
  String messageOrDefault() {
    return message.isEmpty() ? "failed rule: " + errorString() : message.strip();
  }

  @Override
  public String toString() {
    return "apiextensions.ValidationRule{Rule:" + Strconv.quote(rule)
        + ", Message:" + Strconv.quote(message)
        + ", MessageExpression:" + Strconv.quote(messageExpression)
        + ", Reason:" + (reason == null ? "(*apiextensions.FieldValueErrorReason)(nil)"
            : "(*apiextensions.FieldValueErrorReason)(" + Strconv.quote(reason) + ")")
        + ", FieldPath:" + Strconv.quote(fieldPath)
        + ", OptionalOldSelf:" + (optionalOldSelf == null ? "(*bool)(nil)"
            : "(*bool)(" + optionalOldSelf + ")")
        + "}";
  }

  private static String text(JsonNode n, String name) {
    JsonNode v = n.get(name);
    return v != null && v.isTextual() ? v.textValue() : "";
  }
}

package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube 1.32's {@code ValidateTolerations} and, for a pod update,
 * {@code validateOnlyAddedTolerations}: a key is a qualified name; an empty key needs operator
 * {@code Exists}; {@code Equal} (or no operator) takes a label value, {@code Exists} no value;
 * an effect is {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}, and
 * {@code tolerationSeconds} needs {@code NoExecute}. An update may add tolerations and change
 * {@code tolerationSeconds}, nothing else. Stateless.
 */
final class TolerationValidation {

  private TolerationValidation() {
  }

  /** The errors of {@code tolerations}, found at {@code path}. */
  static void tolerations(JsonNode tolerations, String path, List<Status.Cause> errors) {
    for (int i = 0; i < tolerations.size(); i++) {
      JsonNode t = tolerations.get(i);
      String at = path + "[" + i + "]";
      String key = text(t, "key");
      String operator = text(t, "operator");
      String value = text(t, "value");
      String effect = text(t, "effect");
      if (!key.isEmpty()) {
        PodSpecValidation.qualifiedName(key, at + ".key", errors);
      }
      if (key.isEmpty() && !operator.equals("Exists")) {
        errors.add(FieldErrors.invalid(at + ".operator", operator,
            "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
      }
      if (set(t, "tolerationSeconds") && !effect.equals("NoExecute")) {
        errors.add(FieldErrors.invalid(at + ".effect", effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
      }
      switch (operator) {
        case "Equal", "" -> {
          List<String> msgs = NameSyntax.isValidLabelValue(value);
          if (!msgs.isEmpty()) {
            errors.add(FieldErrors.invalid(at + ".operator", value, String.join(";", msgs)));
          }
        }
        case "Exists" -> {
          if (!value.isEmpty()) {
            errors.add(FieldErrors.invalid(at + ".operator", value, "value must be empty when `operator` is 'Exists'"));
          }
        }
        default -> errors.add(FieldErrors.notSupported(at + ".operator", operator, List.of("Equal", "Exists")));
      }
      if (!effect.isEmpty() && !List.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(effect)) {
        errors.add(FieldErrors.notSupported(at + ".effect", effect, List.of("NoSchedule", "PreferNoSchedule", "NoExecute")));
      }
    }
  }

  /**
   * kube's {@code validateOnlyAddedTolerations}: each of {@code old} must still be in
   * {@code updated}, but for its {@code tolerationSeconds}; then the new list's own rules.
   */
  static void onlyAdded(JsonNode updated, JsonNode old, String path, List<Status.Cause> errors) {
    for (JsonNode o : old) {
      boolean found = false;
      for (JsonNode n : updated) {
        if (withoutSeconds(o).equals(withoutSeconds(n))) {
          found = true;
          break;
        }
      }
      if (!found) {
        errors.add(FieldErrors.forbidden(path, "existing toleration can not be modified except its tolerationSeconds"));
        return;
      }
    }
    tolerations(updated, path, errors);
  }

  private static JsonNode withoutSeconds(JsonNode t) {
    JsonNode copy = PodUpdateValidation.normalized(t);
    if (copy instanceof ObjectNode o) {
      o.remove("tolerationSeconds");
    }
    return copy;
  }
}

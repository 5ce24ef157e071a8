package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Map;

/**
 * PriorityClasses (scheduling.k8s.io/v1), kube's strategy, defaults and validation. Defaults:
 * {@code preemptionPolicy: PreemptLowerPriority} ({@code kubectl describe} reads it without
 * checking it is there). Validation ({@code ValidatePriorityClass},
 * {@code ValidatePriorityClassUpdate}): a name with the reserved {@code system-} prefix must be
 * one of kube's system classes, with its value and {@code globalDefault}; any other class's
 * value is at most 1000000000; {@code preemptionPolicy} is PreemptLowerPriority or Never; on
 * update {@code value} and {@code preemptionPolicy} may not change. Stateless.
 */
final class PriorityClassStrategy implements RestStrategy {

  /** kube's {@code HighestUserDefinablePriority}. */
  private static final long HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000L;
  /** kube's system priority classes and their values (none is a global default). */
  private static final Map<String, Long> SYSTEM_CLASSES = Map.of(
      "system-node-critical", 2_000_001_000L, "system-cluster-critical", 2_000_000_000L);

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(obj, "preemptionPolicy", "PreemptLowerPriority");
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String name = obj.path("metadata").path("name").asText("");
    long value = obj.path("value").asLong(0);
    if (old == null) {
      if (name.startsWith("system-")) {
        String problem = systemClassProblem(name, value, obj.path("globalDefault").asBoolean(false));
        if (problem != null) {
          errors.add(FieldErrors.forbidden("metadata.name",
              "priority class names with 'system-' prefix are reserved for system use only. error: " + problem));
        }
      } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
        errors.add(FieldErrors.forbidden("value",
            "maximum allowed value of a user defined priority is " + HIGHEST_USER_DEFINABLE_PRIORITY));
      }
      JsonNode policy = obj.path("preemptionPolicy");
      if (NumericFields.given(policy)) {
        String p = policy.asText("");
        if (p.isEmpty()) {
          errors.add(FieldErrors.required("preemptionPolicy", ""));
        } else if (!p.equals("PreemptLowerPriority") && !p.equals("Never")) {
          errors.add(FieldErrors.notSupported("preemptionPolicy", p, List.of("PreemptLowerPriority", "Never")));
        }
      }
      return;
    }
    if (value != old.path("value").asLong(0)) {
      errors.add(FieldErrors.forbidden("value", "may not be changed in an update."));
    }
    if (!obj.path("preemptionPolicy").equals(old.path("preemptionPolicy"))) {
      errors.add(FieldErrors.invalid("preemptionPolicy", obj.path("preemptionPolicy").asText(null), "field is immutable"));
    }
  }

  /** kube's {@code IsKnownSystemPriorityClass}: null when it is one, else why not. */
  private static String systemClassProblem(String name, long value, boolean globalDefault) {
    Long expected = SYSTEM_CLASSES.get(name);
    if (expected == null) {
      return name + " is not a known system priority class";
    }
    if (expected != value) {
      return "value of " + name + " PriorityClass must be " + expected;
    }
    if (globalDefault) {
      return "globalDefault of " + name + " PriorityClass must be false";
    }
    return null;
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * PodDisruptionBudgets (policy/v1), kube's {@code ValidatePodDisruptionBudgetSpec} (on create
 * and update; the spec may change since kube 1.15): {@code minAvailable} and
 * {@code maxUnavailable} not both, each a count not below zero or a percentage up to 100%; a
 * valid selector; {@code unhealthyPodEvictionPolicy} AlwaysAllow or IfHealthyBudget. Stateless.
 */
final class PodDisruptionBudgetStrategy implements RestStrategy {

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    JsonNode minAvailable = spec.path("minAvailable");
    JsonNode maxUnavailable = spec.path("maxUnavailable");
    if (NumericFields.given(minAvailable) && NumericFields.given(maxUnavailable)) {
      errors.add(FieldErrors.invalid("spec.minAvailable", IntOrPercent.shown(minAvailable),
          "minAvailable and maxUnavailable cannot be both set"));
    }
    for (String field : new String[] {"minAvailable", "maxUnavailable"}) {
      JsonNode value = spec.path(field);
      if (NumericFields.given(value)) {
        IntOrPercent.validatePositive(value, "spec." + field, errors);
        IntOrPercent.notMoreThan100Percent(value, "spec." + field, errors);
      }
    }
    LabelSelectorValidation.validate(spec.path("selector"), "spec.selector", errors);
    JsonNode policy = spec.path("unhealthyPodEvictionPolicy");
    if (NumericFields.given(policy) && !List.of("AlwaysAllow", "IfHealthyBudget").contains(policy.asText(""))) {
      errors.add(FieldErrors.notSupported("spec.unhealthyPodEvictionPolicy", policy.asText(""),
          List.of("AlwaysAllow", "IfHealthyBudget")));
    }
  }
}

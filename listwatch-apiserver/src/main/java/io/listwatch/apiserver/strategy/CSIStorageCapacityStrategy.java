package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.core.Quantity;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CSIStorageCapacities (storage.k8s.io/v1, namespaced), kube 1.32's strategy and validation;
 * kube has no defaults for them.
 *
 * <p>Validation ({@code ValidateCSIStorageCapacity}): {@code nodeTopology} a valid label
 * selector (on update, invalid label values in its expressions are let through when the stored
 * selector had some, as kube's {@code AllowInvalidLabelValueInSelector}); {@code storageClassName}
 * a DNS-1123 subdomain (so also required); {@code capacity} not negative. kube checks nothing of
 * {@code maximumVolumeSize}. On update, the same and ({@code ValidateCSIStorageCapacityUpdate})
 * {@code nodeTopology} and {@code storageClassName} are immutable
 * (the inputs of the driver's GetCapacity); the capacities may change. Stateless.
 */
final class CSIStorageCapacityStrategy implements RestStrategy {

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode topology = obj.path("nodeTopology");
    String className = obj.path("storageClassName").asText("");
    // kube's hasInvalidLabelValueInLabelSelector: a stored selector with invalid values keeps them allowed
    boolean allowInvalidValues = old != null
        && !LabelSelectorValidation.validate(old.path("nodeTopology"), "nodeTopology", false, new ArrayList<>());
    LabelSelectorValidation.validate(topology, "nodeTopology", allowInvalidValues, errors);
    for (String msg : NameSyntax.isDns1123Subdomain(className)) {
      errors.add(FieldErrors.invalid("storageClassName", className, msg));
    }
    JsonNode capacity = obj.path("capacity");
    BigDecimal amount = Quantities.amount(capacity);
    if (amount != null && amount.signum() < 0) {
      errors.add(FieldErrors.invalid("capacity", canonical(capacity.asText()), Quantities.NEGATIVE));
    }
    if (old == null) {
      return;
    }
    if (!LabelSelectorValidation.sameSelector(topology, old.path("nodeTopology"))) {
      errors.add(FieldErrors.invalid("nodeTopology", goSelector(topology), "field is immutable"));
    }
    if (!className.equals(old.path("storageClassName").asText(""))) {
      errors.add(FieldErrors.invalid("storageClassName", className, "field is immutable"));
    }
  }

  private static String canonical(String quantity) {
    try {
      return Quantity.of(quantity).toString();
    } catch (IllegalArgumentException e) {
      return quantity;
    }
  }

  /** Go's {@code %#v} of a {@code metav1.LabelSelector} (the pointer dereferenced, as kube's field errors do). */
  private static Object goSelector(JsonNode selector) {
    if (!NumericFields.given(selector)) {
      return null;
    }
    StringBuilder b = new StringBuilder("v1.LabelSelector{MatchLabels:");
    JsonNode labels = selector.path("matchLabels");
    if (!NumericFields.given(labels)) {
      b.append("map[string]string(nil)");
    } else {
      Map<String, String> sorted = new TreeMap<>();
      labels.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText("")));
      List<String> pairs = new ArrayList<>();
      sorted.forEach((k, v) -> pairs.add(FieldErrors.goValue(k) + ":" + FieldErrors.goValue(v)));
      b.append("map[string]string{").append(String.join(", ", pairs)).append('}');
    }
    b.append(", MatchExpressions:");
    JsonNode expressions = selector.path("matchExpressions");
    if (!NumericFields.given(expressions)) {
      b.append("[]v1.LabelSelectorRequirement(nil)");
    } else {
      List<String> items = new ArrayList<>();
      for (JsonNode r : expressions) {
        List<String> values = new ArrayList<>();
        r.path("values").forEach(v -> values.add(v.asText("")));
        items.add(GoLiteral.struct("v1.LabelSelectorRequirement",
            "Key", FieldErrors.goValue(r.path("key").asText("")),
            "Operator", FieldErrors.goValue(r.path("operator").asText("")),
            "Values", r.path("values").isArray() ? FieldErrors.goValue(values) : "[]string(nil)").toString());
      }
      b.append("[]v1.LabelSelectorRequirement{").append(String.join(", ", items)).append('}');
    }
    return new GoLiteral(b.append('}').toString());
  }
}

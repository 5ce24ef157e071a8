package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.qualifiedName;
import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Map;

/**
 * kube 1.32's {@code validateAffinity} and the selectors it uses: node affinity (required
 * terms, at least one, each expression's operator with the values it needs, keys qualified
 * names, values label values; {@code matchFields} only on {@code metadata.name}; preferred
 * terms weighted 1-100), pod affinity and anti-affinity (label selectors, namespaces,
 * {@code topologyKey} required and a qualified name, weights 1-100). Also kube's
 * {@code ValidateLabels} and {@code ValidateLabelSelector}, which {@code nodeSelector} and
 * topology spread use. Stateless.
 */
final class AffinityValidation {

  private static final String WEIGHT_RANGE = "must be in the range 1-100";

  private AffinityValidation() {
  }

  /** The errors of {@code affinity}, found at {@code path}. */
  static void affinity(JsonNode affinity, String path, List<Status.Cause> errors) {
    if (!affinity.isObject()) {
      return;
    }
    if (set(affinity, "nodeAffinity")) {
      nodeAffinity(affinity.path("nodeAffinity"), path + ".nodeAffinity", errors);
    }
    for (String kind : List.of("podAffinity", "podAntiAffinity")) {
      if (!set(affinity, kind)) {
        continue;
      }
      JsonNode a = affinity.path(kind);
      String at = path + "." + kind;
      JsonNode required = a.path("requiredDuringSchedulingIgnoredDuringExecution");
      for (int i = 0; i < required.size(); i++) {
        podAffinityTerm(required.get(i), at + ".requiredDuringSchedulingIgnoredDuringExecution[" + i + "]", errors);
      }
      JsonNode preferred = a.path("preferredDuringSchedulingIgnoredDuringExecution");
      for (int i = 0; i < preferred.size(); i++) {
        String term = at + ".preferredDuringSchedulingIgnoredDuringExecution[" + i + "]";
        weight(preferred.get(i), term, errors);
        podAffinityTerm(preferred.get(i).path("podAffinityTerm"), term + ".podAffinityTerm", errors);
      }
    }
  }

  private static void nodeAffinity(JsonNode na, String path, List<Status.Cause> errors) {
    if (set(na, "requiredDuringSchedulingIgnoredDuringExecution")) {
      String at = path + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
      JsonNode terms = na.path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms");
      if (terms.isEmpty()) {
        errors.add(FieldErrors.required(at, "must have at least one node selector term"));
      }
      for (int i = 0; i < terms.size(); i++) {
        nodeSelectorTerm(terms.get(i), true, at + "[" + i + "]", errors);
      }
    }
    JsonNode preferred = na.path("preferredDuringSchedulingIgnoredDuringExecution");
    for (int i = 0; i < preferred.size(); i++) {
      String at = path + ".preferredDuringSchedulingIgnoredDuringExecution[" + i + "]";
      weight(preferred.get(i), at, errors);
      // kube allows invalid label values in preferred terms
      nodeSelectorTerm(preferred.get(i).path("preference"), false, at + ".preference", errors);
    }
  }

  private static void weight(JsonNode term, String path, List<Status.Cause> errors) {
    long weight = term.path("weight").asLong(0);
    if (weight <= 0 || weight > 100) {
      errors.add(FieldErrors.invalid(path + ".weight", weight, WEIGHT_RANGE));
    }
  }

  /** kube's {@code ValidateNodeSelectorTerm}. */
  private static void nodeSelectorTerm(JsonNode term, boolean checkValues, String path, List<Status.Cause> errors) {
    JsonNode expressions = term.path("matchExpressions");
    for (int j = 0; j < expressions.size(); j++) {
      JsonNode req = expressions.get(j);
      String at = path + ".matchExpressions[" + j + "]";
      requirement(req, true, checkValues, at, errors);
    }
    JsonNode fields = term.path("matchFields");
    for (int j = 0; j < fields.size(); j++) {
      JsonNode req = fields.get(j);
      String at = path + ".matchFields[" + j + "]";
      String operator = text(req, "operator");
      if (operator.equals("In") || operator.equals("NotIn")) {
        if (req.path("values").size() != 1) {
          errors.add(FieldErrors.required(at + ".values",
              "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
        }
      } else {
        errors.add(FieldErrors.invalid(at + ".operator", operator, "not a valid selector operator"));
      }
      if (!text(req, "key").equals("metadata.name")) {
        errors.add(FieldErrors.invalid(at + ".key", text(req, "key"), "not a valid field selector key"));
      } else {
        JsonNode values = req.path("values");
        for (int k = 0; k < values.size(); k++) {
          PodSpecValidation.subdomain(values.get(k).asText(), at + ".values[" + k + "]", errors);
        }
      }
    }
  }

  /** kube's {@code validatePodAffinityTerm}. */
  private static void podAffinityTerm(JsonNode term, String path, List<Status.Cause> errors) {
    labelSelector(term.path("labelSelector"), path + ".labelSelector", errors);
    labelSelector(term.path("namespaceSelector"), path + ".namespaceSelector", errors);
    for (JsonNode namespace : term.path("namespaces")) {
      // kube reports these at ".namespace"
      PodSpecValidation.label(namespace.asText(), path + ".namespace", errors);
    }
    String topologyKey = text(term, "topologyKey");
    if (topologyKey.isEmpty()) {
      errors.add(FieldErrors.required(path + ".topologyKey", "can not be empty"));
    }
    qualifiedName(topologyKey, path + ".topologyKey", errors);
  }

  /** kube's {@code ValidateLabelSelector} (label values checked), when {@code selector} is set. */
  static void labelSelector(JsonNode selector, String path, List<Status.Cause> errors) {
    if (!selector.isObject()) {
      return;
    }
    labels(selector.path("matchLabels"), path + ".matchLabels", errors);
    JsonNode expressions = selector.path("matchExpressions");
    for (int i = 0; i < expressions.size(); i++) {
      JsonNode req = expressions.get(i);
      String at = path + ".matchExpressions[" + i + "]";
      requirement(req, false, true, at, errors);
    }
  }

  /**
   * kube's {@code ValidateNodeSelectorRequirement} ({@code gtLt}: a node's, which also knows
   * {@code Gt} and {@code Lt}) and {@code ValidateLabelSelectorRequirement}: the values the
   * operator needs, a qualified key, and (if {@code checkValues}) label values.
   */
  private static void requirement(JsonNode req, boolean gtLt, boolean checkValues, String at, List<Status.Cause> errors) {
    String operator = text(req, "operator");
    JsonNode values = req.path("values");
    switch (operator) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errors.add(FieldErrors.required(at + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errors.add(FieldErrors.forbidden(at + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case "Gt", "Lt" -> {
        if (!gtLt) {
          errors.add(FieldErrors.invalid(at + ".operator", operator, "not a valid selector operator"));
        } else if (values.size() != 1) {
          errors.add(FieldErrors.required(at + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
      }
      default -> errors.add(FieldErrors.invalid(at + ".operator", operator, "not a valid selector operator"));
    }
    qualifiedName(text(req, "key"), at + ".key", errors);
    if (checkValues) {
      labelValues(values, at + ".values", errors);
    }
  }

  /** kube's {@code ValidateLabels}: keys qualified names, values label values, reported at the map's path. */
  static void labels(JsonNode labels, String path, List<Status.Cause> errors) {
    for (Map.Entry<String, JsonNode> e : labels.properties()) {
      qualifiedName(e.getKey(), path, errors);
      String value = e.getValue().asText();
      for (String msg : NameSyntax.isValidLabelValue(value)) {
        errors.add(FieldErrors.invalid(path, value, msg));
      }
    }
  }

  private static void labelValues(JsonNode values, String path, List<Status.Cause> errors) {
    for (int k = 0; k < values.size(); k++) {
      String value = values.get(k).asText();
      for (String msg : NameSyntax.isValidLabelValue(value)) {
        errors.add(FieldErrors.invalid(path + "[" + k + "]", value, msg));
      }
    }
  }
}

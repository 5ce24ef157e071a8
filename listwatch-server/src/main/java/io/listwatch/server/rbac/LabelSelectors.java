package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts a metav1 {@code LabelSelector} object ({@code matchLabels}, {@code matchExpressions})
 * to a {@link LabelSelector}, as kube's {@code LabelSelectorAsSelector}: an empty object selects
 * everything. Stateless.
 */
final class LabelSelectors {

  private LabelSelectors() {
  }

  static LabelSelector fromJson(JsonNode selector) {
    List<String> terms = new ArrayList<>();
    selector.path("matchLabels").properties().forEach(e -> terms.add(e.getKey() + "=" + e.getValue().asText()));
    for (JsonNode expr : selector.path("matchExpressions")) {
      String key = expr.path("key").asText("");
      List<String> values = new ArrayList<>();
      expr.path("values").forEach(v -> values.add(v.asText()));
      String set = "(" + String.join(",", values) + ")";
      switch (expr.path("operator").asText("")) {
        case "In" -> terms.add(key + " in " + set);
        case "NotIn" -> terms.add(key + " notin " + set);
        case "Exists" -> terms.add(key);
        case "DoesNotExist" -> terms.add("!" + key);
        default -> throw new IllegalArgumentException("unknown label selector operator in " + expr);
      }
    }
    return LabelSelector.parse(String.join(",", terms));
  }
}

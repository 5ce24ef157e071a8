package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;

/**
 * Converts a metav1 {@code LabelSelector} object ({@code matchLabels}, {@code matchExpressions})
 * to a {@link LabelSelector}, as kube's {@code LabelSelectorAsSelector}: an empty object selects
 * everything. Stateless.
 */
final class LabelSelectors {

  private LabelSelectors() {
  }

  static LabelSelector fromJson(JsonNode selector) {
    return LabelSelector.fromObject(selector);
  }
}

package io.listwatch.controllers.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.client.DynamicObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What the controller reads of a ReplicaSet's spec, with kube's defaults. Stateless. */
final class ReplicaSetSpec {

  private ReplicaSetSpec() {}

  /** {@code spec.replicas}, 1 when absent (kube's default). */
  static int replicas(DynamicObject rs) {
    return rs.get("spec", "replicas").filter(n -> !n.isNull()).map(JsonNode::asInt).orElse(1);
  }

  static long minReadySeconds(DynamicObject rs) {
    return rs.get("spec", "minReadySeconds").map(JsonNode::asLong).orElse(0L);
  }

  /**
   * {@code spec.selector} as a selector; empty when it is missing or empty, which selects
   * nothing (kube's {@code labels.Nothing()}; validation requires a selector, and a controller
   * must never claim every pod of a namespace). A selector that does not parse throws the
   * 400 {@link io.listwatch.api.StatusException}.
   */
  static Optional<LabelSelector> selector(DynamicObject rs) {
    JsonNode selector = rs.get("spec", "selector").orElse(null);
    if (selector == null || selector.isNull() || selector.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(LabelSelector.fromObject(selector));
  }

  static Map<String, String> templateLabels(DynamicObject rs) {
    Map<String, String> labels = new LinkedHashMap<>();
    rs.get("spec", "template", "metadata", "labels")
        .ifPresent(l -> l.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText())));
    return labels;
  }
}

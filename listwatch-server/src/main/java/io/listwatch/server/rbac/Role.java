package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Role or a ClusterRole as the authorizer keeps it: its rules, labels and, for an
 * aggregated ClusterRole, the selectors of its aggregation rule. Immutable.
 *
 * @param namespace "" for a ClusterRole
 * @param aggregation empty unless the object has an {@code aggregationRule}; each entry is
 *     one {@code clusterRoleSelectors} item
 */
public record Role(String namespace, String name, Map<String, String> labels, List<PolicyRule> rules,
    Optional<List<LabelSelector>> aggregation) {

  public Role {
    labels = Map.copyOf(labels);
    rules = List.copyOf(rules);
  }

  static Role fromJson(JsonNode obj) {
    JsonNode meta = obj.path("metadata");
    Map<String, String> labels = new LinkedHashMap<>();
    meta.path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    Optional<List<LabelSelector>> aggregation = Optional.empty();
    JsonNode rule = obj.get("aggregationRule");
    if (rule != null && rule.isObject()) {
      List<LabelSelector> selectors = new ArrayList<>();
      for (JsonNode s : rule.path("clusterRoleSelectors")) {
        selectors.add(LabelSelectors.fromJson(s));
      }
      aggregation = Optional.of(List.copyOf(selectors));
    }
    return new Role(meta.path("namespace").asText(""), meta.path("name").asText(""), labels,
        PolicyRule.listFromJson(obj.get("rules")), aggregation);
  }
}

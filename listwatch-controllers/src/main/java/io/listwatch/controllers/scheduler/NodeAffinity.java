package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Honours {@code spec.nodeSelector} and the required node affinity
 * ({@code requiredDuringSchedulingIgnoredDuringExecution}), as kube's plugin of the same name:
 * every nodeSelector pair must be a label of the node, and one of the affinity's
 * {@code nodeSelectorTerms} must match. A term matches when all its {@code matchExpressions}
 * (on labels: {@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}, {@code Gt},
 * {@code Lt}) and {@code matchFields} (only {@code metadata.name}, with {@code In} or
 * {@code NotIn}) hold; a term with neither matches nothing.
 *
 * <p>Its score ({@link #score}) is kube's: the sum of the weights of the
 * {@code preferredDuringSchedulingIgnoredDuringExecution} terms whose {@code preference} the
 * node matches, scaled so the best node scores 100. Stateless.
 */
final class NodeAffinity implements FilterPlugin {

  static final String REASON = "node(s) didn't match Pod's node affinity/selector";

  @Override
  public List<String> filter(PodInfo pod, NodeInfo node) {
    for (Map.Entry<String, String> e : pod.nodeSelector().entrySet()) {
      if (!e.getValue().equals(node.labels().get(e.getKey()))) {
        return List.of(REASON);
      }
    }
    JsonNode required = pod.requiredNodeAffinity();
    if (required.isObject() && !matchesAnyTerm(required.path("nodeSelectorTerms"), node)) {
      return List.of(REASON);
    }
    return List.of();
  }

  /**
   * The normalized score (0-100) of each of {@code feasible}; empty when the pod has no
   * preferred node affinity, so every node would score the same.
   */
  static Optional<long[]> score(PodInfo pod, List<NodeInfo> feasible) {
    JsonNode preferred = pod.preferredNodeAffinity();
    if (preferred.isEmpty()) {
      return Optional.empty();
    }
    long[] scores = new long[feasible.size()];
    long max = 0;
    for (int i = 0; i < scores.length; i++) {
      for (JsonNode term : preferred) {
        int weight = term.path("weight").asInt(0);
        if (weight != 0 && matchesTerm(term.path("preference"), feasible.get(i))) {
          scores[i] += weight;
        }
      }
      max = Math.max(max, scores[i]);
    }
    if (max > 0) {
      for (int i = 0; i < scores.length; i++) {
        scores[i] = NodeScorer.MAX_SCORE * scores[i] / max;
      }
    }
    return Optional.of(scores);
  }

  static boolean matchesAnyTerm(JsonNode terms, NodeInfo node) {
    for (JsonNode term : terms) {
      if (matchesTerm(term, node)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesTerm(JsonNode term, NodeInfo node) {
    JsonNode expressions = term.path("matchExpressions");
    JsonNode fields = term.path("matchFields");
    if (expressions.isEmpty() && fields.isEmpty()) {
      return false;
    }
    for (JsonNode r : expressions) {
      String key = r.path("key").asText("");
      if (!matches(r, node.labels().containsKey(key), node.labels().get(key))) {
        return false;
      }
    }
    for (JsonNode r : fields) {
      if (!r.path("key").asText("").equals("metadata.name")) {
        return false;
      }
      String op = r.path("operator").asText("");
      if (!op.equals("In") && !op.equals("NotIn")) {
        return false;
      }
      if (!matches(r, true, node.name())) {
        return false;
      }
    }
    return true;
  }

  /** One requirement against a label (or field) that is {@code present} with {@code value}. */
  private static boolean matches(JsonNode requirement, boolean present, String value) {
    JsonNode values = requirement.path("values");
    return switch (requirement.path("operator").asText("")) {
      case "In" -> present && contains(values, value);
      case "NotIn" -> !present || !contains(values, value);
      case "Exists" -> present;
      case "DoesNotExist" -> !present;
      case "Gt", "Lt" -> {
        if (!present || values.size() != 1) {
          yield false;
        }
        try {
          long label = Long.parseLong(value);
          long bound = Long.parseLong(values.get(0).asText());
          yield requirement.path("operator").asText().equals("Gt") ? label > bound : label < bound;
        } catch (NumberFormatException e) {
          yield false;
        }
      }
      default -> false;
    };
  }

  private static boolean contains(JsonNode values, String value) {
    for (JsonNode v : values) {
      if (v.asText().equals(value)) {
        return true;
      }
    }
    return false;
  }
}

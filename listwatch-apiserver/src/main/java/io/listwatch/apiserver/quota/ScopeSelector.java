package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One scope a ResourceQuota applies to (kube's {@code ScopedResourceSelectorRequirement}): a
 * scope name ({@code Terminating}, {@code BestEffort}, {@code PriorityClass}, ...), an operator
 * ({@code Exists}, {@code DoesNotExist}, {@code In}, {@code NotIn}) and, for the last two, values.
 * A quota's {@code spec.scopes} are read as {@code Exists}. Immutable.
 *
 * @param scopeName the scope
 * @param operator how the scope's value is compared
 * @param values the values {@code In} and {@code NotIn} compare with
 */
public record ScopeSelector(String scopeName, String operator, List<String> values) {

  public static final String EXISTS = "Exists";

  public ScopeSelector {
    values = List.copyOf(values);
  }

  /** Every scope of {@code quota}: its {@code spec.scopes}, then its {@code spec.scopeSelector}'s expressions. */
  public static List<ScopeSelector> of(JsonNode quota) {
    List<ScopeSelector> out = new ArrayList<>();
    JsonNode spec = quota.path("spec");
    for (JsonNode scope : spec.path("scopes")) {
      out.add(new ScopeSelector(scope.asText(), EXISTS, List.of()));
    }
    for (JsonNode e : spec.path("scopeSelector").path("matchExpressions")) {
      List<String> values = new ArrayList<>();
      e.path("values").forEach(v -> values.add(v.asText()));
      out.add(new ScopeSelector(e.path("scopeName").asText(), e.path("operator").asText(), values));
    }
    return out;
  }

  /**
   * Whether an object whose value for the scope is {@code value} (null: it has none) matches, as
   * kube matches a label selector on the one label {@code scopeName=value}.
   */
  public boolean matchesValue(String value) {
    return switch (operator) {
      case EXISTS -> value != null;
      case "DoesNotExist" -> value == null;
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      default -> false;
    };
  }
}

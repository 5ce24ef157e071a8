package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's toleration, matched against taints by kube's rules ({@code ToleratesTaint}).
 * Immutable.
 *
 * @param key the key; {@code ""} with operator {@code Exists} tolerates every taint
 * @param operator {@code Equal} (also when empty) or {@code Exists}
 * @param value the value compared with {@code Equal}
 * @param effect the effect tolerated, {@code ""} for all
 */
record Toleration(String key, String operator, String value, String effect) {

  /** The tolerations of {@code spec.tolerations}. */
  static List<Toleration> of(JsonNode tolerations) {
    List<Toleration> list = new ArrayList<>();
    for (JsonNode t : tolerations) {
      list.add(new Toleration(t.path("key").asText(""), t.path("operator").asText(""), t.path("value").asText(""),
          t.path("effect").asText("")));
    }
    return List.copyOf(list);
  }

  /**
   * Whether this toleration tolerates {@code taint}: the effects match (or this one names
   * none), the keys match (or this one names none), and the operator holds: {@code Exists}
   * always, {@code Equal} (or empty) when the values are equal; any other operator never.
   */
  boolean tolerates(Taint taint) {
    if (!effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return switch (operator) {
      case "Exists" -> true;
      case "", "Equal" -> value.equals(taint.value());
      default -> false;
    };
  }

  /** Whether any of {@code tolerations} tolerates {@code taint}. */
  static boolean anyTolerates(List<Toleration> tolerations, Taint taint) {
    for (Toleration t : tolerations) {
      if (t.tolerates(taint)) {
        return true;
      }
    }
    return false;
  }
}

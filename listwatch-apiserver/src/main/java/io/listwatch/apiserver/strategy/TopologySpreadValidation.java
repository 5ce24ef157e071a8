package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube 1.32's {@code validateTopologySpreadConstraints}: {@code maxSkew} above 0, a
 * {@code topologyKey}, {@code whenUnsatisfiable} {@code DoNotSchedule} or
 * {@code ScheduleAnyway}, no two constraints with the same key and action, {@code minDomains}
 * above 0 and only with {@code DoNotSchedule}, the node inclusion policies {@code Honor} or
 * {@code Ignore}, and a valid label selector. {@code matchLabelKeys} are not checked.
 * Stateless.
 */
final class TopologySpreadValidation {

  private static final String NOT_POSITIVE = "must be greater than zero";

  private TopologySpreadValidation() {
  }

  /** The errors of {@code constraints}, found at {@code path}. */
  static void constraints(JsonNode constraints, String path, List<Status.Cause> errors) {
    for (int i = 0; i < constraints.size(); i++) {
      JsonNode c = constraints.get(i);
      String at = path + "[" + i + "]";
      long maxSkew = c.path("maxSkew").asLong(0);
      if (maxSkew <= 0) {
        errors.add(FieldErrors.invalid(at + ".maxSkew", maxSkew, NOT_POSITIVE));
      }
      String key = text(c, "topologyKey");
      if (key.isEmpty()) {
        errors.add(FieldErrors.required(at + ".topologyKey", "can not be empty"));
      }
      String action = text(c, "whenUnsatisfiable");
      if (!action.equals("DoNotSchedule") && !action.equals("ScheduleAnyway")) {
        errors.add(FieldErrors.notSupported(at + ".whenUnsatisfiable", action, List.of("DoNotSchedule", "ScheduleAnyway")));
      }
      for (int j = i + 1; j < constraints.size(); j++) {
        if (key.equals(text(constraints.get(j), "topologyKey")) && action.equals(text(constraints.get(j), "whenUnsatisfiable"))) {
          errors.add(FieldErrors.duplicate(at + ".{topologyKey, whenUnsatisfiable}", "{" + key + ", " + action + "}"));
          break;
        }
      }
      if (set(c, "minDomains")) {
        long minDomains = c.path("minDomains").asLong(0);
        if (minDomains <= 0) {
          errors.add(FieldErrors.invalid(at + ".minDomains", minDomains, NOT_POSITIVE));
        }
        if (!action.equals("DoNotSchedule")) {
          errors.add(FieldErrors.invalid(at + ".minDomains", minDomains,
              "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + action));
        }
      }
      for (String policy : List.of("nodeAffinityPolicy", "nodeTaintsPolicy")) {
        if (c.path(policy).isTextual() && !List.of("Honor", "Ignore").contains(c.path(policy).textValue())) {
          errors.add(FieldErrors.notSupported(at + "." + policy, c.path(policy).textValue(), List.of("Honor", "Ignore")));
        }
      }
      AffinityValidation.labelSelector(c.path("labelSelector"), at + ".labelSelector", errors);
    }
  }
}

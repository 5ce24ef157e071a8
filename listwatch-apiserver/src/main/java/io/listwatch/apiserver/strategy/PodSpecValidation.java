package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code ValidatePodSpec}, as far as this server checks it, shared by pods and by every
 * workload's pod template: at least one container; each container and init container named
 * (a DNS-1123 label, unique across both lists) and with an image. Field paths are kube's,
 * under the given prefix ({@code spec} for a pod, {@code spec.template.spec} for a workload).
 * Stateless.
 *
 * <p>Not yet checked (step 9): volumes, probes, resources, security context, affinity,
 * tolerations, topology spread, DNS config, ports, restartPolicy and the rest of kube's rules.
 */
final class PodSpecValidation {

  private PodSpecValidation() {
  }

  /** Adds the errors of the pod spec {@code spec}, found at {@code path}, to {@code errors}. */
  static void validate(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode containers = spec.path("containers");
    if (!containers.isArray() || containers.isEmpty()) {
      errors.add(FieldErrors.required(path + ".containers", ""));
    }
    Set<String> names = new HashSet<>();
    containers(spec.path("initContainers"), path + ".initContainers", names, errors);
    containers(containers, path + ".containers", names, errors);
  }

  private static void containers(JsonNode list, String path, Set<String> names, List<Status.Cause> errors) {
    if (!list.isArray()) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode c = list.get(i);
      String at = path + "[" + i + "]";
      String name = c.path("name").asText("");
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(at + ".name", ""));
      } else {
        ItemNames.check(name, at + ".name", names, errors);
      }
      if (c.path("image").asText("").isEmpty()) {
        errors.add(FieldErrors.required(at + ".image", ""));
      }
    }
  }

  /**
   * What every workload's validation checks of its spec here: {@code spec.replicas} not
   * negative (for the kinds that have replicas), a selector ({@code spec.selector: Required
   * value}), and its pod template's spec.
   */
  static void workload(JsonNode spec, boolean hasReplicas, List<Status.Cause> errors) {
    if (hasReplicas) {
      nonNegative(spec.path("replicas"), "spec.replicas", errors);
    }
    if (spec.path("selector").isMissingNode() || spec.path("selector").isNull()) {
      errors.add(FieldErrors.required("spec.selector", ""));
    }
    validate(spec.path("template").path("spec"), "spec.template.spec", errors);
  }

  /**
   * kube's {@code ValidateNonnegativeField}: {@code <path>: Invalid value: <n>: must be greater
   * than or equal to 0}, for an integer below zero.
   */
  private static void nonNegative(JsonNode value, String path, List<Status.Cause> errors) {
    if (value.isIntegralNumber() && value.longValue() < 0) {
      errors.add(FieldErrors.invalid(path, value.longValue(), "must be greater than or equal to 0"));
    }
  }
}

package io.listwatch.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A pod's quality-of-service class, as kube computes it when the pod is created (and as the
 * kubelet reads it): {@code BestEffort} when no container (init containers included) requests
 * or limits CPU or memory; {@code Guaranteed} when every container limits both CPU and memory
 * and each request it states equals its limit (a missing request defaults to the limit);
 * {@code Burstable} otherwise. Only CPU and memory count. Stateless.
 */
public final class PodQosClass {

  private static final List<String> COMPUTE = List.of("cpu", "memory");

  private PodQosClass() {
  }

  /** The class of the pod whose {@code spec} is given. Quantities that do not parse count as set but unequal. */
  public static String of(JsonNode spec) {
    boolean any = false;
    boolean guaranteed = true;
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode c : spec.path(list)) {
        JsonNode requests = c.path("resources").path("requests");
        JsonNode limits = c.path("resources").path("limits");
        for (String r : COMPUTE) {
          boolean requested = requests.hasNonNull(r);
          boolean limited = limits.hasNonNull(r);
          any |= requested || limited;
          if (!limited || requested && !equal(requests.get(r).asText(), limits.get(r).asText())) {
            guaranteed = false;
          }
        }
      }
    }
    if (!any) {
      return "BestEffort";
    }
    return guaranteed ? "Guaranteed" : "Burstable";
  }

  private static boolean equal(String a, String b) {
    try {
      return Quantity.sameAmount(a, b);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}

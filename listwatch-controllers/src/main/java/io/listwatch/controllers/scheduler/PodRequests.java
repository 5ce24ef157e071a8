package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a pod requests, by kube's rules ({@code resourcehelper.PodRequests}): the sum of its
 * containers' requests; an init container runs alone, so the pod needs at least the largest
 * of them; a restartable init container (a sidecar, {@code restartPolicy: Always}) keeps
 * running, so it adds to everything started after it and to the containers; then
 * {@code spec.overhead} on top. Stateless.
 */
final class PodRequests {

  /** kube's defaults for a container that requests no CPU or no memory, used when scoring. */
  static final long DEFAULT_MILLI_CPU = 100;
  static final long DEFAULT_MEMORY = 200L * 1024 * 1024;

  private PodRequests() {
  }

  /** The pod's requests as the resource fit filter counts them. */
  static Resources of(JsonNode spec) {
    return compute(spec, false);
  }

  /**
   * The requests as the scorers count them: a container that does not state a CPU or
   * memory request counts as 100m CPU or 200Mi memory (kube's non-zero requests), so that
   * pods without requests still spread.
   */
  static Resources nonZero(JsonNode spec) {
    return compute(spec, true);
  }

  private static Resources compute(JsonNode spec, boolean nonZero) {
    Resources containers = Resources.ZERO;
    for (JsonNode c : spec.path("containers")) {
      containers = containers.plus(container(c, nonZero));
    }
    Resources sidecars = Resources.ZERO;
    Resources init = Resources.ZERO;
    for (JsonNode c : spec.path("initContainers")) {
      Resources r = container(c, nonZero);
      if ("Always".equals(c.path("restartPolicy").asText())) {
        sidecars = sidecars.plus(r);
        init = init.max(sidecars);
      } else {
        init = init.max(r.plus(sidecars));
      }
    }
    Resources total = containers.plus(sidecars).max(init);
    JsonNode overhead = spec.path("overhead");
    return overhead.isObject() ? total.plus(Resources.of(overhead)) : total;
  }

  private static Resources container(JsonNode container, boolean nonZero) {
    JsonNode requests = container.path("resources").path("requests");
    long cpu = Resources.milli(requests.path("cpu"));
    long memory = Resources.value(requests.path("memory"));
    if (nonZero) {
      cpu = requests.has("cpu") ? cpu : DEFAULT_MILLI_CPU;
      memory = requests.has("memory") ? memory : DEFAULT_MEMORY;
    }
    return new Resources(cpu, memory);
  }
}

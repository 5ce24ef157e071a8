package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a whole pod requests and limits, from its {@code spec} (kube's {@code PodRequests} and
 * {@code PodLimits}, {@code pkg/api/v1/resource}; LimitRanger's {@code podRequests} and
 * {@code podLimits} are the same without the overhead): the sum over the containers, plus the
 * sidecars (init containers with {@code restartPolicy: Always}), and at least the most any one
 * init container needs while it runs (itself plus the sidecars started before it). The pod's
 * {@code spec.overhead}, when asked for, is added to every request and to the limits the pod
 * sets. The spec as stored is read (kube 1.32's in-place resize, which would read the
 * containers' allocated resources, is off by default). Stateless.
 */
public final class PodResources {

  private PodResources() {
  }

  /** The pod's requests; {@code withOverhead} adds {@code spec.overhead}. */
  public static ResourceList requests(JsonNode spec, boolean withOverhead) {
    ResourceList requests = aggregate(spec, "requests");
    return withOverhead ? requests.add(ResourceList.fromJson(spec.path("overhead"))) : requests;
  }

  /** The pod's limits; {@code withOverhead} adds {@code spec.overhead} to the resources it limits. */
  public static ResourceList limits(JsonNode spec, boolean withOverhead) {
    ResourceList limits = aggregate(spec, "limits");
    return withOverhead ? limits.add(ResourceList.fromJson(spec.path("overhead")).mask(limits.names())) : limits;
  }

  /** A container's {@code resources.requests} or {@code resources.limits}. */
  public static ResourceList of(JsonNode container, String list) {
    return ResourceList.fromJson(container.path("resources").path(list));
  }

  private static ResourceList aggregate(JsonNode spec, String list) {
    ResourceList total = ResourceList.EMPTY;
    for (JsonNode c : spec.path("containers")) {
      total = total.add(of(c, list));
    }
    ResourceList sidecars = ResourceList.EMPTY;
    Map<String, Quantity> initMost = new TreeMap<>();
    for (JsonNode c : spec.path("initContainers")) {
      ResourceList own = of(c, list);
      ResourceList whileRunning;
      if (c.path("restartPolicy").asText("").equals("Always")) {
        total = total.add(own);
        sidecars = sidecars.add(own);
        whileRunning = sidecars;
      } else {
        whileRunning = own.add(sidecars);
      }
      atLeast(initMost, whileRunning);
    }
    Map<String, Quantity> out = new TreeMap<>(total.amounts());
    atLeast(out, ResourceList.of(initMost));
    return ResourceList.of(out);
  }

  /** Raises each amount of {@code into} to {@code other}'s where that is more (kube's {@code maxResourceList}). */
  private static void atLeast(Map<String, Quantity> into, ResourceList other) {
    other.amounts().forEach((k, v) -> into.merge(k, v, (mine, theirs) -> theirs.compareTo(mine) > 0 ? theirs : mine));
  }
}

package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.PodQosClass;
import io.listwatch.api.core.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Quota of pods (kube's {@code podEvaluator}): a pod uses {@code count/pods} while it is stored,
 * and, while it is not over ({@link #charged}), {@code pods} and the compute it requests and
 * limits for the whole pod ({@link PodResources}, overhead included): {@code requests.cpu} (also
 * as {@code cpu}), {@code limits.cpu}, the same for {@code memory} and
 * {@code ephemeral-storage}, huge pages ({@code hugepages-*} and {@code requests.hugepages-*})
 * and extended resources (as {@code requests.<name>}).
 *
 * <p>Constraints: kube's backward-compatible rule that when a quota tracks CPU or memory
 * ({@code cpu}, {@code requests.cpu}, {@code limits.cpu}, the same for memory) every container,
 * init containers included, must state it. Scopes: {@code Terminating} and
 * {@code NotTerminating} ({@code spec.activeDeadlineSeconds}), {@code BestEffort} and
 * {@code NotBestEffort} (the QoS class), {@code PriorityClass} ({@code spec.priorityClassName})
 * and {@code CrossNamespacePodAffinity}. Only creates are measured (kube 1.32's in-place resize,
 * which would measure updates, is off by default). Stateless.
 */
public final class PodEvaluator implements QuotaEvaluator {

  static final String COUNT = QuotaEvaluator.objectCountName("", "pods");
  private static final List<String> RESOURCES = List.of(COUNT, "cpu", "memory", "ephemeral-storage", "requests.cpu",
      "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods");
  private static final List<String> PREFIXES = List.of("hugepages-", "requests.hugepages-");
  /** What every container must state when a quota tracks it: kube keeps this list closed. */
  private static final Set<String> MUST_STATE = Set.of("cpu", "memory", "requests.cpu", "requests.memory",
      "limits.cpu", "limits.memory");

  @Override
  public String group() {
    return "";
  }

  @Override
  public String plural() {
    return "pods";
  }

  @Override
  public boolean handlesUpdates() {
    return false;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    List<String> out = new ArrayList<>();
    for (String name : input) {
      if (RESOURCES.contains(name) || PREFIXES.stream().anyMatch(name::startsWith)
          || (!isNative(name) && name.startsWith("requests."))) {
        out.add(name);
      }
    }
    return out;
  }

  @Override
  public String constraints(Collection<String> required, JsonNode pod) {
    Set<String> mustState = new TreeSet<>(required);
    mustState.retainAll(MUST_STATE);
    Map<String, SortedSet<String>> missing = new TreeMap<>();
    for (String list : List.of("containers", "initContainers")) {
      for (JsonNode c : pod.path("spec").path(list)) {
        Set<String> stated = compute(PodResources.of(c, "requests"), PodResources.of(c, "limits")).names();
        for (String r : mustState) {
          if (!stated.contains(r)) {
            missing.computeIfAbsent(r, k -> new TreeSet<>()).add(c.path("name").asText());
          }
        }
      }
    }
    if (missing.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    missing.forEach((r, containers) -> parts.add(r + " for: " + String.join(",", containers)));
    return "must specify " + String.join("; ", parts);
  }

  @Override
  public ResourceList usage(JsonNode pod, Instant now) {
    ResourceList usage = ResourceList.EMPTY.with(COUNT, Quantity.ofCount(1));
    if (!charged(pod, now)) {
      return usage;
    }
    JsonNode spec = pod.path("spec");
    return usage.add(compute(PodResources.requests(spec, true), PodResources.limits(spec, true)));
  }

  /**
   * Whether a pod is charged for compute and {@code pods} (kube's {@code QuotaV1Pod}): not when it
   * has ended ({@code Succeeded}, {@code Failed}) or is stuck being deleted (its deletion time
   * plus its grace period again has passed).
   */
  static boolean charged(JsonNode pod, Instant now) {
    String phase = pod.path("status").path("phase").asText("");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return false;
    }
    JsonNode meta = pod.path("metadata");
    if (meta.hasNonNull("deletionTimestamp") && meta.hasNonNull("deletionGracePeriodSeconds")) {
      Instant deleted = Instant.parse(meta.path("deletionTimestamp").asText());
      return !now.isAfter(deleted.plusSeconds(meta.path("deletionGracePeriodSeconds").asLong()));
    }
    return true;
  }

  /** kube's {@code podComputeUsageHelper}: the quota names of what requests and limits state. */
  private static ResourceList compute(ResourceList requests, ResourceList limits) {
    Map<String, Quantity> out = new TreeMap<>();
    out.put("pods", Quantity.ofCount(1));
    for (String r : List.of("cpu", "memory", "ephemeral-storage")) {
      if (requests.has(r)) {
        out.put(r, requests.get(r));
        out.put("requests." + r, requests.get(r));
      }
      if (limits.has(r)) {
        out.put("limits." + r, limits.get(r));
      }
    }
    requests.amounts().forEach((r, q) -> {
      if (r.startsWith("hugepages-")) {
        out.put(r, q);
        out.put("requests." + r, q);
      }
      if (!isNative(r) && !r.startsWith("requests.")) { // an extended resource
        out.put("requests." + r, q);
      }
    });
    return ResourceList.of(out);
  }

  /** kube's {@code IsNativeResource}: no domain, or a kubernetes.io one. */
  private static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  @Override
  public boolean matchesScope(ScopeSelector scope, JsonNode pod) {
    JsonNode spec = pod.path("spec");
    return switch (scope.scopeName()) {
      case "Terminating" -> terminating(spec);
      case "NotTerminating" -> !terminating(spec);
      case "BestEffort" -> bestEffort(pod);
      case "NotBestEffort" -> !bestEffort(pod);
      case "PriorityClass" -> {
        String priorityClass = spec.path("priorityClassName").asText("");
        yield scope.matchesValue(priorityClass.isEmpty() ? null : priorityClass);
      }
      case "CrossNamespacePodAffinity" -> crossNamespaceAffinity(spec.path("affinity"));
      default -> false;
    };
  }

  private static boolean terminating(JsonNode spec) {
    return spec.path("activeDeadlineSeconds").isNumber() && spec.path("activeDeadlineSeconds").asLong() >= 0;
  }

  private static boolean bestEffort(JsonNode pod) {
    String qos = pod.path("status").path("qosClass").asText("");
    return (qos.isEmpty() ? PodQosClass.of(pod.path("spec")) : qos).equals("BestEffort");
  }

  private static boolean crossNamespaceAffinity(JsonNode affinity) {
    for (String kind : List.of("podAffinity", "podAntiAffinity")) {
      JsonNode terms = affinity.path(kind);
      for (JsonNode t : terms.path("requiredDuringSchedulingIgnoredDuringExecution")) {
        if (crossNamespace(t)) {
          return true;
        }
      }
      for (JsonNode t : terms.path("preferredDuringSchedulingIgnoredDuringExecution")) {
        if (crossNamespace(t.path("podAffinityTerm"))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean crossNamespace(JsonNode term) {
    return !term.path("namespaces").isEmpty() || term.hasNonNull("namespaceSelector");
  }
}

package io.listwatch.apiserver.aggregator;

import java.util.Map;
import java.util.Optional;

/**
 * The discovery priorities kube-apiserver gives the APIServices of its own group-versions
 * (kube 1.32's hard-coded {@code apiVersionPriorities}), and those of custom resources' (the
 * CRD registration controller's 1000 and 100). A group-version missing from the table gets no
 * local APIService, as in kube. Stateless.
 */
final class APIServicePriorities {

  /** A group's and a version's priority: {@code spec.groupPriorityMinimum}, {@code spec.versionPriority}. */
  record Priority(int group, int version) {
  }

  /** Custom resources' group-versions: low, below every built-in. */
  static final Priority CUSTOM_RESOURCES = new Priority(1000, 100);

  private static final Map<String, Priority> BUILTINS = Map.ofEntries(
      Map.entry("/v1", new Priority(18000, 1)),
      Map.entry("apiregistration.k8s.io/v1", new Priority(18000, 15)),
      Map.entry("apps/v1", new Priority(17800, 15)),
      Map.entry("events.k8s.io/v1", new Priority(17750, 15)),
      Map.entry("authentication.k8s.io/v1", new Priority(17700, 15)),
      Map.entry("authorization.k8s.io/v1", new Priority(17600, 15)),
      Map.entry("autoscaling/v1", new Priority(17500, 15)),
      Map.entry("autoscaling/v2", new Priority(17500, 30)),
      Map.entry("batch/v1", new Priority(17400, 15)),
      Map.entry("certificates.k8s.io/v1", new Priority(17300, 15)),
      Map.entry("networking.k8s.io/v1", new Priority(17200, 15)),
      Map.entry("policy/v1", new Priority(17100, 15)),
      Map.entry("rbac.authorization.k8s.io/v1", new Priority(17000, 15)),
      Map.entry("storage.k8s.io/v1", new Priority(16800, 15)),
      Map.entry("apiextensions.k8s.io/v1", new Priority(16700, 15)),
      Map.entry("admissionregistration.k8s.io/v1", new Priority(16700, 15)),
      Map.entry("scheduling.k8s.io/v1", new Priority(16600, 15)),
      Map.entry("coordination.k8s.io/v1", new Priority(16500, 15)),
      Map.entry("node.k8s.io/v1", new Priority(16300, 15)),
      Map.entry("discovery.k8s.io/v1", new Priority(16200, 15)),
      Map.entry("flowcontrol.apiserver.k8s.io/v1", new Priority(16100, 21)));

  private APIServicePriorities() {
  }

  /** The priority of a built-in group-version, empty when kube has none for it. */
  static Optional<Priority> builtin(String group, String version) {
    return Optional.ofNullable(BUILTINS.get(group + "/" + version));
  }
}

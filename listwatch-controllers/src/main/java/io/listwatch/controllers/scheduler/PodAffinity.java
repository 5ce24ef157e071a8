package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A pod's {@code spec.affinity.podAffinity} and {@code podAntiAffinity}, parsed once (kube's
 * {@code PodInfo} affinity fields). Immutable.
 *
 * @param required {@code podAffinity.requiredDuringSchedulingIgnoredDuringExecution}
 * @param preferred {@code podAffinity.preferredDuringSchedulingIgnoredDuringExecution}
 * @param requiredAnti {@code podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution}
 * @param preferredAnti {@code podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution}
 */
record PodAffinity(List<AffinityTerm> required, List<AffinityTerm> preferred, List<AffinityTerm> requiredAnti,
    List<AffinityTerm> preferredAnti) {

  static final PodAffinity NONE = new PodAffinity(List.of(), List.of(), List.of(), List.of());

  /** The terms of {@code affinity} (a pod's {@code spec.affinity}) for a pod in {@code namespace}. */
  static PodAffinity of(JsonNode affinity, String namespace) {
    JsonNode a = affinity.path("podAffinity");
    JsonNode anti = affinity.path("podAntiAffinity");
    if (a.isMissingNode() && anti.isMissingNode()) {
      return NONE;
    }
    String req = "requiredDuringSchedulingIgnoredDuringExecution";
    String pref = "preferredDuringSchedulingIgnoredDuringExecution";
    PodAffinity p = new PodAffinity(AffinityTerm.required(a.path(req), namespace),
        AffinityTerm.preferred(a.path(pref), namespace), AffinityTerm.required(anti.path(req), namespace),
        AffinityTerm.preferred(anti.path(pref), namespace));
    return p.isEmpty() ? NONE : p;
  }

  /** Whether the pod has no term at all. */
  boolean isEmpty() {
    return required.isEmpty() && preferred.isEmpty() && requiredAnti.isEmpty() && preferredAnti.isEmpty();
  }
}

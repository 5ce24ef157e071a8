package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pod affinity or anti-affinity term (kube's {@code AffinityTerm}): which pods it is
 * about, and over which topology domain. A pod matches when its namespace is one the term
 * names and its labels match the {@code labelSelector}.
 *
 * <p>Namespaces as kube: those listed in {@code namespaces}, plus those whose labels match
 * {@code namespaceSelector} (an empty selector {@code {}} matches every namespace); with
 * neither, the namespace of the pod that carries the term. A missing {@code labelSelector}
 * matches no pod; an empty one matches every pod. A selector that does not parse matches no
 * pod. Immutable.
 *
 * @param selector the {@code labelSelector}, null when missing (matches nothing)
 * @param namespaces the namespaces named, or defaulted to the owning pod's
 * @param namespaceSelector the {@code namespaceSelector}, null when missing
 * @param topologyKey the node label whose value is the domain, e.g. {@code kubernetes.io/hostname}
 * @param weight the weight of a preferred term (1-100), 0 for a required one
 */
record AffinityTerm(LabelSelector selector, Set<String> namespaces, LabelSelector namespaceSelector,
    String topologyKey, int weight) {

  /** The terms of a {@code required...} list, owned by a pod in {@code namespace}. */
  static List<AffinityTerm> required(JsonNode terms, String namespace) {
    List<AffinityTerm> list = new ArrayList<>();
    for (JsonNode t : terms) {
      list.add(of(t, namespace, 0));
    }
    return List.copyOf(list);
  }

  /** The terms of a {@code preferred...} list ({@code weight} and {@code podAffinityTerm}). */
  static List<AffinityTerm> preferred(JsonNode weighted, String namespace) {
    List<AffinityTerm> list = new ArrayList<>();
    for (JsonNode w : weighted) {
      list.add(of(w.path("podAffinityTerm"), namespace, w.path("weight").asInt(0)));
    }
    return List.copyOf(list);
  }

  private static AffinityTerm of(JsonNode term, String namespace, int weight) {
    Set<String> namespaces = new HashSet<>();
    term.path("namespaces").forEach(n -> namespaces.add(n.asText()));
    JsonNode nsSelector = term.get("namespaceSelector");
    boolean hasNsSelector = nsSelector != null && nsSelector.isObject();
    if (namespaces.isEmpty() && !hasNsSelector) {
      namespaces.add(namespace);
    }
    JsonNode selector = term.get("labelSelector");
    return new AffinityTerm(selector != null && selector.isObject() ? selectorOrNull(selector) : null,
        Set.copyOf(namespaces), hasNsSelector ? selectorOrNull(nsSelector) : null,
        term.path("topologyKey").asText(""), weight);
  }

  private static LabelSelector selectorOrNull(JsonNode selector) {
    try {
      return LabelSelector.fromObject(selector);
    } catch (StatusException e) {
      return null;
    }
  }

  /** Whether {@code pod} is one of the pods this term is about. */
  boolean matches(PodInfo pod, NamespaceLabels namespaceLabels) {
    return matches(pod.object().namespace(), pod.labels(), namespaceLabels);
  }

  /** Whether the pods of {@code group} are pods this term is about. */
  boolean matches(PodGroup group, NamespaceLabels namespaceLabels) {
    return matches(group.namespace(), group.labels(), namespaceLabels);
  }

  private boolean matches(String ns, Map<String, String> labels, NamespaceLabels namespaceLabels) {
    if (selector == null) {
      return false;
    }
    if (!namespaces.contains(ns)
        && (namespaceSelector == null || !namespaceSelector.matches(namespaceLabels.of(ns)))) {
      return false;
    }
    return selector.matches(labels);
  }
}

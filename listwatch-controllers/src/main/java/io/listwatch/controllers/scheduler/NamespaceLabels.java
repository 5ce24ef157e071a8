package io.listwatch.controllers.scheduler;

import java.util.Map;

/**
 * The labels of a namespace, for the {@code namespaceSelector} of pod affinity terms. The
 * scheduler reads them from the shared namespaces informer; an unknown namespace has none.
 * Implementations are thread-safe.
 */
@FunctionalInterface
interface NamespaceLabels {

  /** No namespace has labels (tests, and callers without a namespaces informer). */
  NamespaceLabels NONE = namespace -> Map.of();

  /** The labels of {@code namespace}, empty when it is unknown. */
  Map<String, String> of(String namespace);
}

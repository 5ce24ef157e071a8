package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.FieldSelector;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.ListOptions;

/**
 * What a list or watch selects: a namespace ({@code ""} for all), a label selector and a
 * field selector. Immutable; thread-safe.
 *
 * <p>Field selectors may name {@code metadata.name}, {@code metadata.namespace} or any other
 * dotted path, read from the object as text. (kube accepts only the fields each resource
 * declares; the fake accepts every path rather than reject one a real server would take.)
 */
record Filter(String namespace, LabelSelector labels, FieldSelector fields) {

  static Filter of(String namespace, ListOptions options) {
    return new Filter(namespace, options.labelSelector(), options.fieldSelector());
  }

  /** Whether the selectors narrow the result (kube then leaves out remainingItemCount). */
  boolean selective() {
    return !labels.isEverything() || !fields.isEverything();
  }

  boolean matches(ObjectNode object) {
    if (!namespace.isEmpty() && !namespace.equals(Trees.meta(object, "namespace"))) {
      return false;
    }
    if (!labels.isEverything() && !labels.matches(Trees.labels(object))) {
      return false;
    }
    return fields.isEverything() || fields.matches(field -> switch (field) {
      case "metadata.name" -> Trees.meta(object, "name");
      case "metadata.namespace" -> Trees.meta(object, "namespace");
      default -> Trees.field(object, field);
    });
  }
}

package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.client.ResourceType;

/**
 * The {@link ObjectTracker}'s checks of its arguments: the namespace and name a call
 * addresses, answered as the server answers a bad URL (400) or an object that names no
 * object (422). Stateless; thread-safe.
 */
final class TrackerArgs {

  private TrackerArgs() {
  }

  /**
   * The namespace argument, checked: null is {@code ""}.
   *
   * @param required whether a namespaced resource needs one (a get, patch or delete of one
   *     object; not a list or watch, where {@code ""} means all namespaces)
   * @throws StatusException 400 for a namespace on a cluster-scoped resource, or none where
   *     one is required
   */
  static String namespace(ResourceType type, String namespace, boolean required) {
    String ns = namespace == null ? "" : namespace;
    if (!type.namespaced() && !ns.isEmpty()) {
      throw StatusException.badRequest(type + " is cluster-scoped: namespace must be empty, got \"" + ns + "\"");
    }
    if (required && type.namespaced() && ns.isEmpty()) {
      throw StatusException.badRequest(type + " is namespaced: a namespace is required");
    }
    return ns;
  }

  /** The name argument of a call on one object: not empty. */
  static String name(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    return name;
  }

  /**
   * The key of the object an update addresses, from its own metadata.
   *
   * @throws StatusException 422 without a name, or without a namespace for a namespaced
   *     resource
   */
  static String updateKey(ResourceType type, ObjectNode updated) {
    String name = Trees.meta(updated, "name");
    if (name.isEmpty()) {
      throw ObjectMetaRules.invalid(type, "", Reasons.FIELD_VALUE_REQUIRED,
          "Required value: name is required", "metadata.name");
    }
    String namespace = type.namespaced() ? Trees.meta(updated, "namespace") : "";
    if (type.namespaced() && namespace.isEmpty()) {
      throw ObjectMetaRules.invalid(type, name, Reasons.FIELD_VALUE_REQUIRED,
          "Required value: " + type + " are namespaced: set metadata.namespace", "metadata.namespace");
    }
    return Trees.key(namespace, name);
  }
}

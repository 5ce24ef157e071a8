package io.listwatch.server.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.server.registry.ResourceDefinition;
import java.util.Set;

/**
 * Per-kind rules beyond metadata, as kube's registry strategies hold them: what a new object
 * of a kind starts with, and what may not be deleted. Stateless.
 */
final class Strategies {

  /** Namespaces kube creates at start and refuses to delete. */
  static final Set<String> PROTECTED_NAMESPACES = Set.of("default", "kube-system", "kube-public");

  private Strategies() {
  }

  /** Fills what the server sets on a new object of this kind (a namespace starts Active). */
  static void prepareForCreate(ResourceDefinition def, ObjectNode obj) {
    if (isNamespaces(def)) {
      obj.putObject("status").put("phase", "Active");
    }
  }

  /** Refuses deletes kube refuses: the built-in namespaces (403 Forbidden). */
  static void checkDelete(ResourceDefinition def, String name) {
    if (isNamespaces(def) && PROTECTED_NAMESPACES.contains(name)) {
      throw StatusException.forbidden("", "namespaces", name, "this namespace may not be deleted");
    }
  }

  private static boolean isNamespaces(ResourceDefinition def) {
    return def.group().isEmpty() && def.plural().equals("namespaces");
  }
}

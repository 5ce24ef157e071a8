package io.listwatch.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.server.registry.ResourceDefinition;
import java.util.Set;

/**
 * Per-kind rules beyond metadata, as kube's registry strategies hold them: what a new object
 * of a kind starts with (a namespace Active, a pod Pending with its QoS class, a volume
 * Pending), and what may not be deleted ({@link Defaulting} holds the defaults of every
 * write). Stateless.
 */
final class Strategies {

  /** Namespaces kube creates at start and refuses to delete. */
  static final Set<String> PROTECTED_NAMESPACES = Set.of("default", "kube-system", "kube-public");

  private static final Set<String> APPS_WORKLOADS = Set.of("deployments", "replicasets", "statefulsets", "daemonsets");

  private Strategies() {
  }

  /** Fills what the server sets on a new object of this kind (a namespace starts Active). */
  static void prepareForCreate(ResourceDefinition def, ObjectNode obj, java.time.Instant now) {
    if (isNamespaces(def)) {
      obj.putObject("status").put("phase", "Active");
      // kube's namespace strategy: the namespace controller's finalizer is added to the client's
      ObjectNode spec = obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
      com.fasterxml.jackson.databind.node.ArrayNode finalizers = spec.get("finalizers")
          instanceof com.fasterxml.jackson.databind.node.ArrayNode a ? a : spec.putArray("finalizers");
      boolean present = false;
      for (JsonNode f : finalizers) {
        present |= f.asText().equals(Deletion.NAMESPACE_FINALIZER);
      }
      if (!present) {
        finalizers.add(Deletion.NAMESPACE_FINALIZER);
      }
    }
    if (def.clearsStatusOnCreate()) {
      obj.remove("status");
    }
    if (def.group().isEmpty() && def.plural().equals("pods")) {
      // kube's pod strategy: a new pod is Pending with its QoS class, whatever status it came with
      obj.putObject("status").put("phase", "Pending")
          .put("qosClass", io.listwatch.api.core.PodQosClass.of(obj.path("spec")));
    }
    if (def.group().isEmpty() && def.plural().equals("persistentvolumes")) {
      obj.putObject("status").put("phase", "Pending")
          .put("lastPhaseTransitionTime", io.listwatch.api.meta.ObjectMetaRules.timestamp(now));
    }
  }

  /**
   * What kube's status strategies reset beyond the spec on {@code /status}: the labels of apps
   * workloads (deployments, replicasets, statefulsets, daemonsets) and a pod's ownerReferences.
   */
  static void prepareForStatusUpdate(ResourceDefinition def, ObjectNode updated, ObjectNode current) {
    ObjectNode meta = ObjectMetaDefaults.metadata(updated);
    JsonNode old = current.path("metadata");
    if (def.group().equals("apps") && APPS_WORKLOADS.contains(def.plural())) {
      copy(old, meta, "labels");
    } else if (def.group().isEmpty() && def.plural().equals("pods")) {
      copy(old, meta, "ownerReferences");
    }
  }

  private static void copy(JsonNode from, ObjectNode to, String field) {
    if (from.has(field)) {
      to.set(field, from.get(field).deepCopy());
    } else {
      to.remove(field);
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

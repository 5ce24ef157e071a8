package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.NameGenerator;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.registry.ResourceDefinition;

/**
 * The server's use of {@link ObjectMetaRules} (the metadata the server owns: uid,
 * creationTimestamp, generation, namespace, generated names, and what an update may not
 * change), with its clock and name generator. Stateless apart from those; thread-safe.
 */
final class ObjectMetaDefaults {

  private final Clock clock;
  private final NameGenerator names;

  ObjectMetaDefaults(Clock clock, NameGenerator names) {
    this.clock = clock;
    this.names = names;
  }

  /** The server's clock, for everything in rest that reads time. */
  Clock clock() {
    return clock;
  }

  static ObjectNode metadata(ObjectNode obj) {
    return ObjectMetaRules.metadata(obj);
  }

  /** Prepares a new object for storage: the server's fields set, the client's discarded. */
  void prepareForCreate(ResourceDefinition def, ObjectNode obj, String urlNamespace) {
    ObjectMetaRules.prepareForCreate(def, obj, urlNamespace, clock.now(), names);
    dropEmpty(metadata(obj));
  }

  /** See {@link ObjectMetaRules#prepareForUpdate}; empty metadata collections dropped as on create. */
  ObjectNode prepareForUpdate(ResourceDefinition def, ObjectNode updated, ObjectNode current, String urlNamespace,
      String name, boolean statusSubresource) {
    ObjectNode prepared = ObjectMetaRules.prepareForUpdate(def, updated, current, urlNamespace, name,
        statusSubresource);
    dropEmpty(metadata(prepared));
    return prepared;
  }

  /** ObjectMeta's collections that kube leaves out when empty ({@code omitempty}). */
  private static final java.util.List<String> OMITTED_WHEN_EMPTY =
      java.util.List.of("labels", "annotations", "finalizers", "ownerReferences", "managedFields");

  /**
   * Drops the metadata's empty (or null) labels, annotations, finalizers, ownerReferences and
   * managedFields, as kube's encoding of its Go types leaves them out: removing every annotation
   * leaves no {@code "annotations": {}}.
   */
  private static void dropEmpty(ObjectNode meta) {
    for (String field : OMITTED_WHEN_EMPTY) {
      com.fasterxml.jackson.databind.JsonNode value = meta.get(field);
      if (value != null && (value.isNull() || value.isContainerNode() && value.isEmpty())) {
        meta.remove(field);
      }
    }
  }
}

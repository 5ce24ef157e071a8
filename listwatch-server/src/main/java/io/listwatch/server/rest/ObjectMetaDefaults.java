package io.listwatch.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.server.registry.ResourceDefinition;
import io.listwatch.server.validation.NameGenerator;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The metadata the server owns, as kube's rest.BeforeCreate and BeforeUpdate set it: uid,
 * creationTimestamp, generation, namespace defaulting, generated names; and what an update
 * may not change. Stateless apart from its clock and name generator; thread-safe.
 */
final class ObjectMetaDefaults {

  private final Clock clock;
  private final NameGenerator names;

  ObjectMetaDefaults(Clock clock, NameGenerator names) {
    this.clock = clock;
    this.names = names;
  }

  /** Checks kind and apiVersion against the resource, defaulting them when absent. */
  static void checkTypeMeta(ResourceDefinition def, ObjectNode obj) {
    String apiVersion = obj.path("apiVersion").asText("");
    String kind = obj.path("kind").asText("");
    if (!apiVersion.isEmpty() && !apiVersion.equals(def.apiVersion())) {
      throw StatusException.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + def.apiVersion() + ")");
    }
    if (!kind.isEmpty() && !kind.equals(def.kind())) {
      throw StatusException.badRequest("the kind in the data (" + kind + ") does not match the expected kind ("
          + def.kind() + ")");
    }
    obj.put("apiVersion", def.apiVersion());
    obj.put("kind", def.kind());
  }

  static ObjectNode metadata(ObjectNode obj) {
    JsonNode m = obj.get("metadata");
    if (m == null || m.isNull()) {
      return obj.putObject("metadata");
    }
    if (!m.isObject()) {
      throw StatusException.badRequest("metadata must be an object");
    }
    return (ObjectNode) m;
  }

  /** Prepares a new object for storage: the server's fields set, the client's discarded. */
  void prepareForCreate(ResourceDefinition def, ObjectNode obj, String urlNamespace) {
    checkTypeMeta(def, obj);
    ObjectNode meta = metadata(obj);
    checkNamespace(def, meta, urlNamespace);
    String name = meta.path("name").asText("");
    String generateName = meta.path("generateName").asText("");
    if (name.isEmpty() && !generateName.isEmpty()) {
      meta.put("name", names.generate(generateName));
    } else if (name.isEmpty()) {
      throw StatusException.invalid(def.group(), def.kind(), "", List.of(new Status.Cause(
          Reasons.FIELD_VALUE_REQUIRED, "Required value: name or generateName is required", "metadata.name")));
    }
    meta.put("uid", UUID.randomUUID().toString());
    meta.put("creationTimestamp", now());
    meta.remove(List.of("resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"));
    if (def.tracksGeneration()) {
      meta.put("generation", 1);
    } else {
      meta.remove("generation");
    }
  }

  /**
   * Prepares an update of {@code current} to {@code updated} (both full objects): keeps what
   * clients may not change, bumps the generation on a spec change, and for resources with a
   * status subresource keeps the old status on the main resource (and everything but the
   * status on /status).
   */
  ObjectNode prepareForUpdate(ResourceDefinition def, ObjectNode updated, ObjectNode current, String urlNamespace,
      String name, boolean statusSubresource) {
    checkTypeMeta(def, updated);
    ObjectNode meta = metadata(updated);
    checkNamespace(def, meta, urlNamespace);
    String bodyName = meta.path("name").asText("");
    if (!bodyName.isEmpty() && !bodyName.equals(name)) {
      throw StatusException.badRequest("the name of the object (" + bodyName
          + ") does not match the name on the URL (" + name + ")");
    }
    meta.put("name", name);
    ObjectNode oldMeta = metadata(current);
    String uid = meta.path("uid").asText("");
    if (!uid.isEmpty() && !uid.equals(oldMeta.path("uid").asText())) {
      throw StatusException.invalid(def.group(), def.kind(), name, List.of(new Status.Cause(
          Reasons.FIELD_VALUE_INVALID, "Invalid value: \"" + uid + "\": field is immutable", "metadata.uid")));
    }
    ObjectNode result = updated;
    if (statusSubresource) {
      result = current.deepCopy();
      if (updated.has("status")) {
        result.set("status", updated.get("status"));
      } else {
        result.remove("status");
      }
    } else if (def.hasStatus()) {
      if (current.has("status")) {
        result.set("status", current.get("status"));
      } else {
        result.remove("status");
      }
    }
    ObjectNode resultMeta = metadata(result);
    for (String kept : List.of("uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
        "generation")) {
      if (oldMeta.has(kept)) {
        resultMeta.set(kept, oldMeta.get(kept));
      } else {
        resultMeta.remove(kept);
      }
    }
    resultMeta.remove("resourceVersion");
    if (def.tracksGeneration() && !Objects.equals(result.get("spec"), current.get("spec"))) {
      resultMeta.put("generation", oldMeta.path("generation").asLong(0) + 1);
    }
    return result;
  }

  private static void checkNamespace(ResourceDefinition def, ObjectNode meta, String urlNamespace) {
    String ns = meta.path("namespace").asText("");
    if (def.namespaced()) {
      if (!ns.isEmpty() && !ns.equals(urlNamespace)) {
        throw StatusException.badRequest(
            "the namespace of the provided object does not match the namespace sent on the request");
      }
      meta.put("namespace", urlNamespace);
    } else {
      meta.remove("namespace");
    }
  }

  String now() {
    return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
  }
}

package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.client.ResourceType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The metadata the server owns, as kube's {@code rest.BeforeCreate} / {@code BeforeUpdate}
 * set it: type meta, uid, creationTimestamp, generation, generated names, the status
 * subresource split, and finalizers. Stateless; thread-safe.
 *
 * <p>This mirrors listwatch-server's {@code ObjectMetaDefaults} and {@code NameGenerator}
 * (the client cannot depend on the server), with one known difference: every resource gets a
 * {@code generation} here, while the server sets it only for resources that track one
 * (not for ConfigMaps, Secrets, Events, Leases).
 *
 * <p>Every resource is treated as having a status subresource (an update keeps the stored
 * {@code .status}; a status update changes nothing else): for built-in resources without a
 * status (ConfigMap, Secret, Event, Lease) the difference cannot be seen.
 */
final class ObjectMetaRules {

  /** kube's {@code utilrand} alphabet for generated names: no vowels, no 0, 1 or 3. */
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final int RANDOM_LENGTH = 5;
  private static final int MAX_GENERATED_NAME_LENGTH = 63 - RANDOM_LENGTH;

  private ObjectMetaRules() {
  }

  /**
   * Makes {@code object} (a fresh tree, modified in place) ready to store as a new object.
   *
   * @throws StatusException 400 for a wrong kind/apiVersion, 422 without name and
   *     generateName, or without a namespace for a namespaced resource
   */
  static void prepareForCreate(ResourceType type, ObjectNode object, Instant now) {
    checkTypeMeta(type, object);
    ObjectNode meta = Trees.metadata(object);
    checkNamespace(type, meta);
    String name = Trees.meta(object, "name");
    String generateName = Trees.meta(object, "generateName");
    if (name.isEmpty() && !generateName.isEmpty()) {
      meta.put("name", generateName(generateName));
    } else if (name.isEmpty()) {
      throw invalid(type, "", Reasons.FIELD_VALUE_REQUIRED,
          "Required value: name or generateName is required", "metadata.name");
    } else {
      checkName(type, name);
    }
    meta.put("uid", UUID.randomUUID().toString());
    meta.put("creationTimestamp", now.truncatedTo(ChronoUnit.SECONDS).toString());
    meta.remove(List.of("resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"));
    meta.put("generation", 1);
  }

  /**
   * The object to store for an update of {@code current} to {@code updated} (a fresh tree,
   * which may be modified): keeps what clients may not change, keeps the stored status
   * (or, for {@code statusOnly}, keeps everything but the status), bumps the generation on
   * a spec change.
   *
   * @throws StatusException 400 for a wrong kind/apiVersion, 422 for a changed uid
   *     or a finalizer added during deletion
   */
  static ObjectNode prepareForUpdate(ResourceType type, ObjectNode updated, ObjectNode current, boolean statusOnly) {
    checkTypeMeta(type, updated);
    ObjectNode meta = Trees.metadata(updated);
    String name = Trees.meta(current, "name");
    String uid = Trees.meta(updated, "uid");
    if (!uid.isEmpty() && !uid.equals(Trees.meta(current, "uid"))) {
      throw invalid(type, name, Reasons.FIELD_VALUE_INVALID,
          "Invalid value: \"" + uid + "\": field is immutable", "metadata.uid");
    }
    ObjectNode result = updated;
    if (statusOnly) {
      result = current.deepCopy();
      copyMember(updated, result, "status");
    } else {
      copyMember(current, result, "status");
      if (!type.namespaced()) {
        meta.remove("namespace");
      }
    }
    ObjectNode resultMeta = Trees.metadata(result);
    ObjectNode oldMeta = (ObjectNode) current.get("metadata");
    for (String kept : List.of("uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
        "generation")) {
      copyMember(oldMeta, resultMeta, kept);
    }
    resultMeta.remove("resourceVersion");
    if (!Objects.equals(result.get("spec"), current.get("spec"))) {
      resultMeta.put("generation", oldMeta.path("generation").asLong(0) + 1);
    }
    if (isMarkedForDeletion(current)) {
      Set<String> before = finalizers(current);
      for (String f : finalizers(result)) {
        if (!before.contains(f)) {
          throw invalid(type, name, Reasons.FIELD_VALUE_FORBIDDEN,
              "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers [\""
                  + f + "\"]", "metadata.finalizers");
        }
      }
    }
    return result;
  }

  /** Marks an object with finalizers for deletion (a fresh copy), as kube's graceful delete does. */
  static ObjectNode markForDeletion(ObjectNode current, Instant now) {
    ObjectNode marked = current.deepCopy();
    ObjectNode meta = Trees.metadata(marked);
    meta.put("deletionTimestamp", now.truncatedTo(ChronoUnit.SECONDS).toString());
    meta.put("deletionGracePeriodSeconds", 0);
    meta.remove("resourceVersion");
    return marked;
  }

  static boolean isMarkedForDeletion(ObjectNode object) {
    return !Trees.meta(object, "deletionTimestamp").isEmpty();
  }

  static Set<String> finalizers(ObjectNode object) {
    Set<String> names = new LinkedHashSet<>();
    object.path("metadata").path("finalizers").forEach(f -> names.add(f.asText()));
    return names;
  }

  private static void checkTypeMeta(ResourceType type, ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText("");
    String kind = object.path("kind").asText("");
    if (!apiVersion.isEmpty() && !apiVersion.equals(type.apiVersion())) {
      throw StatusException.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + type.apiVersion() + ")");
    }
    if (!kind.isEmpty() && !kind.equals(type.kind())) {
      throw StatusException.badRequest("the kind in the data (" + kind
          + ") does not match the expected kind (" + type.kind() + ")");
    }
    object.put("apiVersion", type.apiVersion());
    object.put("kind", type.kind());
  }

  private static void checkNamespace(ResourceType type, ObjectNode meta) {
    if (!type.namespaced()) {
      meta.remove("namespace"); // kube clears it on cluster-scoped objects
    } else if (meta.path("namespace").asText("").isEmpty()) {
      throw invalid(type, meta.path("name").asText(""), Reasons.FIELD_VALUE_REQUIRED,
          "Required value: " + type + " are namespaced: set metadata.namespace", "metadata.namespace");
    }
  }

  /** The checks that keep keys well-formed: kube's path-segment name rules. */
  private static void checkName(ResourceType type, String name) {
    if (name.equals(".") || name.equals("..") || name.contains("/") || name.contains("%")) {
      throw invalid(type, name, Reasons.FIELD_VALUE_INVALID, "Invalid value: \"" + name
          + "\": may not be '.' or '..' and may not contain '/' or '%'", "metadata.name");
    }
  }

  private static String generateName(String base) {
    String prefix = base.length() > MAX_GENERATED_NAME_LENGTH ? base.substring(0, MAX_GENERATED_NAME_LENGTH) : base;
    StringBuilder name = new StringBuilder(prefix);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < RANDOM_LENGTH; i++) {
      name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return name.toString();
  }

  private static void copyMember(ObjectNode from, ObjectNode to, String member) {
    JsonNode value = from.get(member);
    if (value == null) {
      to.remove(member);
    } else {
      to.set(member, value.deepCopy());
    }
  }

  static StatusException invalid(ResourceType type, String name, String reason, String message, String field) {
    return StatusException.invalid(type.group(), type.kind(), name, List.of(new Status.Cause(reason, message, field)));
  }
}

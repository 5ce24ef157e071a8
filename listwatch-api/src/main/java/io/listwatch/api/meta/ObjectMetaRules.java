package io.listwatch.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The metadata the server owns, as kube's {@code rest.BeforeCreate} and {@code BeforeUpdate}
 * set it: type meta, uid, creationTimestamp, generation (for resources that track one),
 * generated names, the namespace, what an update may not change, the status subresource
 * split, and finalizers during deletion. The API core prepares objects with these rules (the
 * network server and the fake client both run it).
 *
 * <p>Objects are Jackson trees, modified in place where a method says so. Syntax rules for
 * names and labels are not checked here: the server's validation does that afterwards.
 *
 * <p>Stateless; thread-safe.
 */
public final class ObjectMetaRules {

  /** The metadata fields an update keeps from the stored object, whatever the client sent. */
  private static final List<String> KEPT_ON_UPDATE = List.of("uid", "creationTimestamp", "deletionTimestamp",
      "deletionGracePeriodSeconds", "generation");

  private ObjectMetaRules() {
  }

  /**
   * Checks kind and apiVersion against the resource, setting them when absent.
   *
   * @throws StatusException 400 BadRequest when either names another type
   */
  public static void checkTypeMeta(ResourceDescriptor resource, ObjectNode obj) {
    String apiVersion = obj.path("apiVersion").asText("");
    String kind = obj.path("kind").asText("");
    if (!apiVersion.isEmpty() && !apiVersion.equals(resource.apiVersion())) {
      throw StatusException.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + resource.apiVersion() + ")");
    }
    if (!kind.isEmpty() && !kind.equals(resource.kind())) {
      throw StatusException.badRequest("the kind in the data (" + kind + ") does not match the expected kind ("
          + resource.kind() + ")");
    }
    obj.put("apiVersion", resource.apiVersion());
    obj.put("kind", resource.kind());
  }

  /**
   * The object's {@code metadata}, created empty when absent.
   *
   * @throws StatusException 400 BadRequest when it is not a JSON object
   */
  public static ObjectNode metadata(ObjectNode obj) {
    JsonNode m = obj.get("metadata");
    if (m == null || m.isNull()) {
      return obj.putObject("metadata");
    }
    if (!m.isObject()) {
      throw StatusException.badRequest("metadata must be an object");
    }
    return (ObjectNode) m;
  }

  /**
   * Prepares a new object for storage, in place: the server's fields set, the client's
   * discarded. A missing name is generated from {@code generateName}.
   *
   * @param requestNamespace the namespace the request addresses (the URL's); ignored for a
   *     cluster-scoped resource
   * @param now the creation time; kept to the second, as kube's timestamps are
   * @throws StatusException 400 for a wrong kind or apiVersion, or a namespace in the object
   *     other than the request's; 422 without name and generateName, or for a namespaced
   *     resource without a request namespace (the server's URLs always carry one; the client's
   *     fake tracker can be called without)
   */
  public static void prepareForCreate(ResourceDescriptor resource, ObjectNode obj, String requestNamespace,
      Instant now, NameGenerator names) {
    checkTypeMeta(resource, obj);
    ObjectNode meta = metadata(obj);
    checkNamespace(resource, meta, requestNamespace);
    String name = meta.path("name").asText("");
    String generateName = meta.path("generateName").asText("");
    if (name.isEmpty() && !generateName.isEmpty()) {
      meta.put("name", names.generate(generateName));
    } else if (name.isEmpty()) {
      throw invalid(resource, "", Reasons.FIELD_VALUE_REQUIRED,
          "Required value: name or generateName is required", "metadata.name");
    }
    meta.put("uid", UUID.randomUUID().toString());
    meta.put("creationTimestamp", timestamp(now));
    meta.remove(List.of("resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"));
    if (resource.tracksGeneration()) {
      meta.put("generation", 1);
    } else {
      meta.remove("generation");
    }
  }

  /**
   * Prepares an update of {@code current} to {@code updated} (both full objects; {@code updated}
   * may be modified): keeps what clients may not change, bumps the generation on a spec change
   * for resources that track one, and for resources with a status subresource keeps the stored
   * status on the main resource; on {@code /status} it keeps everything but the status and the
   * metadata (kube's built-in status strategies reset the spec; metadata changes go through,
   * apart from what the server owns).
   *
   * @param name the name the request addresses (the URL's)
   * @param statusSubresource whether this is an update of {@code /status}
   * @return the object to store, without a resourceVersion
   * @throws StatusException 400 for a wrong kind or apiVersion, or a name or namespace other
   *     than the request's; 422 for a changed uid
   */
  public static ObjectNode prepareForUpdate(ResourceDescriptor resource, ObjectNode updated, ObjectNode current,
      String requestNamespace, String name, boolean statusSubresource) {
    checkTypeMeta(resource, updated);
    ObjectNode meta = metadata(updated);
    checkNamespace(resource, meta, requestNamespace);
    String bodyName = meta.path("name").asText("");
    if (!bodyName.isEmpty() && !bodyName.equals(name)) {
      throw StatusException.badRequest("the name of the object (" + bodyName
          + ") does not match the name on the URL (" + name + ")");
    }
    meta.put("name", name);
    ObjectNode oldMeta = metadata(current);
    String uid = meta.path("uid").asText("");
    if (!uid.isEmpty() && !uid.equals(oldMeta.path("uid").asText())) {
      throw invalid(resource, name, Reasons.FIELD_VALUE_INVALID,
          "Invalid value: \"" + uid + "\": field is immutable", "metadata.uid");
    }
    ObjectNode result = updated;
    if (statusSubresource) { // kube's status strategies: spec and the rest from the stored object
      result = current.deepCopy();
      copyMember(updated, result, "status");
      result.set("metadata", meta);
    } else if (resource.hasStatus()) {
      copyMember(current, result, "status");
    }
    ObjectNode resultMeta = metadata(result);
    for (String kept : KEPT_ON_UPDATE) {
      copyMember(oldMeta, resultMeta, kept);
    }
    resultMeta.remove("resourceVersion");
    if (resource.tracksGeneration() && !Objects.equals(result.get("spec"), current.get("spec"))) {
      resultMeta.put("generation", oldMeta.path("generation").asLong(0) + 1);
    }
    return result;
  }

  /**
   * kube's graceful deletion of an object with finalizers: a copy of {@code current} with
   * {@code deletionTimestamp} set to {@code now}, a grace period of 0 and no resourceVersion.
   */
  public static ObjectNode markForDeletion(ObjectNode current, Instant now) {
    ObjectNode marked = current.deepCopy();
    ObjectNode meta = metadata(marked);
    meta.remove("resourceVersion");
    meta.put("deletionTimestamp", timestamp(now));
    meta.put("deletionGracePeriodSeconds", 0);
    return marked;
  }

  /** Whether the object has a {@code deletionTimestamp}: it is deleted once its finalizers are gone. */
  public static boolean isMarkedForDeletion(ObjectNode obj) {
    return !obj.path("metadata").path("deletionTimestamp").asText("").isEmpty();
  }

  /** The object's finalizers, in order. */
  public static Set<String> finalizers(ObjectNode obj) {
    Set<String> out = new LinkedHashSet<>();
    obj.path("metadata").path("finalizers").forEach(f -> out.add(f.asText()));
    return out;
  }

  /**
   * kube's rule that an object being deleted may lose finalizers but not gain them.
   *
   * @throws StatusException 422 naming the first new finalizer
   */
  public static void checkNoNewFinalizersWhileDeleting(ResourceDescriptor resource, ObjectNode current,
      ObjectNode updated, String name) {
    if (!isMarkedForDeletion(current)) {
      return;
    }
    Set<String> before = finalizers(current);
    for (String f : finalizers(updated)) {
      if (!before.contains(f)) {
        throw invalid(resource, name, Reasons.FIELD_VALUE_FORBIDDEN,
            "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers [\""
                + f + "\"]", "metadata.finalizers");
      }
    }
  }

  /** A metadata timestamp: RFC 3339 in UTC, to the second, as kube writes them. */
  public static String timestamp(Instant now) {
    return now.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** A 422 Invalid for {@code resource} with one cause. */
  public static StatusException invalid(ResourceDescriptor resource, String name, String reason, String message,
      String field) {
    return StatusException.invalid(resource.group(), resource.kind(), name,
        List.of(new Status.Cause(reason, message, field)));
  }

  private static void checkNamespace(ResourceDescriptor resource, ObjectNode meta, String requestNamespace) {
    if (!resource.namespaced()) {
      meta.remove("namespace"); // kube clears it on cluster-scoped objects
      return;
    }
    String ns = meta.path("namespace").asText("");
    String requested = requestNamespace == null ? "" : requestNamespace;
    if (requested.isEmpty()) {
      throw invalid(resource, meta.path("name").asText(""), Reasons.FIELD_VALUE_REQUIRED,
          "Required value: " + resourceName(resource) + " are namespaced: set metadata.namespace", "metadata.namespace");
    }
    if (!ns.isEmpty() && !ns.equals(requested)) {
      throw StatusException.badRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
    meta.put("namespace", requested);
  }

  /** kube's resource string: {@code plural} for core, otherwise {@code plural.group}. */
  private static String resourceName(ResourceDescriptor resource) {
    return resource.group().isEmpty() ? resource.plural() : resource.plural() + "." + resource.group();
  }

  private static void copyMember(ObjectNode from, ObjectNode to, String member) {
    JsonNode value = from.get(member);
    if (value == null) {
      to.remove(member);
    } else {
      to.set(member, value.deepCopy());
    }
  }
}

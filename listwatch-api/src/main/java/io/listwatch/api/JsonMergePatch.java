package io.listwatch.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;

/**
 * JSON Merge Patch, RFC 7386: what {@code PATCH} with
 * {@code Content-Type: application/merge-patch+json} applies, and what {@code kubectl label},
 * {@code annotate}, {@code scale} and {@code patch --type=merge} send.
 *
 * <p>The algorithm, from RFC 7386 section 2: if the patch is an object, the result is the target
 * (or {@code {}} if the target is not an object) with each patch member applied: a
 * {@code null} member removes the key, any other member is merged into the key's value
 * recursively. A patch that is not an object (array, scalar, {@code null}) replaces the target
 * whole. Arrays are never merged element-wise.
 *
 * <p>Neither input is modified, and the result shares no node with them, so the caller may
 * mutate it freely. Stateless and thread-safe.
 */
public final class JsonMergePatch {

  private JsonMergePatch() {
  }

  /**
   * The result of applying {@code patch} to {@code target}.
   *
   * @param target the document to patch; null or a missing node stands for "no value", which
   *     an object patch treats like any non-object target
   * @param patch the merge patch document; a JSON {@code null} patch yields a {@code null} node
   * @return a new document
   */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    Objects.requireNonNull(patch, "patch");
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result = target != null && target.isObject()
        ? ((ObjectNode) target).deepCopy()
        : JsonNodeFactory.instance.objectNode();
    mergeInto(result, (ObjectNode) patch);
    return result;
  }

  /** Applies an object patch to {@code result}, which this call owns and may modify. */
  private static void mergeInto(ObjectNode result, ObjectNode patch) {
    for (Map.Entry<String, JsonNode> member : patch.properties()) {
      String name = member.getKey();
      JsonNode value = member.getValue();
      if (value.isNull()) {
        result.remove(name);
      } else if (value.isObject()) {
        JsonNode existing = result.get(name);
        ObjectNode child = existing != null && existing.isObject()
            ? (ObjectNode) existing // a copy owned by result already
            : result.putObject(name);
        mergeInto(child, (ObjectNode) value);
      } else {
        result.set(name, value.deepCopy());
      }
    }
  }
}

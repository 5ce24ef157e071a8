package io.listwatch.client.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON merge patch (RFC 7386), as kube applies {@code application/merge-patch+json}:
 * objects merge recursively, {@code null} removes a member, anything else (arrays included)
 * replaces. Stateless; thread-safe.
 */
final class MergePatch {

  private MergePatch() {
  }

  /**
   * Parses a merge patch for an object.
   *
   * @throws StatusException 400 if it is not valid JSON or not a JSON object
   */
  static ObjectNode parse(String patchJson) {
    if (patchJson == null || patchJson.isBlank()) {
      throw StatusException.badRequest("the request has no body");
    }
    JsonNode patch;
    try {
      patch = Trees.MAPPER.readTree(patchJson);
    } catch (JsonProcessingException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getOriginalMessage());
    }
    if (patch instanceof ObjectNode object) {
      return object;
    }
    throw StatusException.badRequest("a merge patch for an object must be a JSON object");
  }

  /** {@code target} with {@code patch} applied; neither argument is modified. */
  static ObjectNode apply(ObjectNode target, ObjectNode patch) {
    ObjectNode result = target.deepCopy();
    merge(result, patch);
    return result;
  }

  private static void merge(ObjectNode target, ObjectNode patch) {
    List<Map.Entry<String, JsonNode>> members = new ArrayList<>(patch.properties());
    for (Map.Entry<String, JsonNode> member : members) {
      String name = member.getKey();
      JsonNode value = member.getValue();
      if (value.isNull()) {
        target.remove(name);
      } else if (value instanceof ObjectNode patchObject) {
        JsonNode existing = target.get(name);
        ObjectNode merged = existing instanceof ObjectNode o ? o : target.objectNode();
        merge(merged, patchObject);
        target.set(name, merged);
      } else {
        target.set(name, value.deepCopy());
      }
    }
  }
}

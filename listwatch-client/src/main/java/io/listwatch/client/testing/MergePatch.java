package io.listwatch.client.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonMergePatch;
import io.listwatch.api.StatusException;

/**
 * Parses a JSON merge patch body as kube does and applies it with {@link JsonMergePatch}.
 * Stateless; thread-safe.
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
    return (ObjectNode) JsonMergePatch.apply(target, patch);
  }
}

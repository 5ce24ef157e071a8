package io.listwatch.client.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonMergePatch;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.JsonPatch;
import io.listwatch.api.patch.PatchSchemas;
import io.listwatch.api.patch.PatchType;
import io.listwatch.api.patch.StrategicMergePatch;
import io.listwatch.client.ResourceType;

/**
 * Parses a patch body and applies it as the server does, with the same code
 * ({@link JsonPatch}, {@link JsonMergePatch}, {@link StrategicMergePatch} and its table of
 * merge keys), so the fake answers as the server would. Stateless; thread-safe.
 */
final class Patches {

  private Patches() {
  }

  /**
   * Parses a patch body.
   *
   * @throws StatusException 400 if it is not valid JSON, or not an object for a merge patch;
   *     415 for strategic merge of a kind that is not built in
   */
  static JsonNode parse(ResourceType type, PatchType patchType, String patchJson) {
    if (patchJson == null || patchJson.isBlank()) {
      throw StatusException.badRequest("the request has no body");
    }
    if (patchType == PatchType.STRATEGIC_MERGE_PATCH
        && PatchSchemas.forKind(type.group(), type.version(), type.kind()).isEmpty()) {
      throw StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
          + "media types include: " + PatchType.JSON_PATCH.mediaType() + ", " + PatchType.MERGE_PATCH.mediaType());
    }
    JsonNode patch;
    try {
      patch = Trees.MAPPER.readTree(patchJson);
    } catch (JsonProcessingException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getOriginalMessage());
    }
    if (patchType == PatchType.JSON_PATCH) {
      JsonPatch.check(patch);
    } else if (!patch.isObject()) {
      throw StatusException.badRequest("a merge patch for an object must be a JSON object");
    }
    return patch;
  }

  /** {@code target} with {@code patch} (from {@link #parse}) applied; neither argument is modified. */
  static ObjectNode apply(ResourceType type, ObjectNode target, PatchType patchType, JsonNode patch) {
    JsonNode out = switch (patchType) {
      case JSON_PATCH -> JsonPatch.apply(target, patch);
      case MERGE_PATCH -> JsonMergePatch.apply(target, patch);
      case STRATEGIC_MERGE_PATCH -> StrategicMergePatch.apply(target, patch,
          PatchSchemas.forKind(type.group(), type.version(), type.kind()).orElseThrow());
    };
    if (out instanceof ObjectNode o) {
      return o;
    }
    throw StatusException.badRequest("the patch does not produce an object");
  }
}

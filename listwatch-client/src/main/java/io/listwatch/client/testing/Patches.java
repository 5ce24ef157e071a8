package io.listwatch.client.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchSchemas;
import io.listwatch.api.patch.PatchType;
import io.listwatch.api.patch.Patcher;
import io.listwatch.client.ResourceType;

/**
 * Parses a patch body as the server does and returns its {@link Patcher} (the server's own),
 * so the fake answers every patch type as the server would. Stateless; thread-safe.
 */
final class Patches {

  private Patches() {
  }

  /**
   * The patcher of a patch body for {@code type}.
   *
   * @throws StatusException 400 if it is not valid JSON or of the wrong shape; 415 for
   *     strategic merge of a kind that is not built in
   */
  static Patcher parse(ResourceType type, PatchType patchType, String patchJson) {
    if (patchJson == null || patchJson.isBlank()) {
      throw StatusException.badRequest("the request has no body");
    }
    JsonNode patch;
    try {
      patch = Trees.MAPPER.readTree(patchJson);
    } catch (JsonProcessingException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getOriginalMessage());
    }
    return Patcher.forRequest(patchType.mediaType(), patch,
        PatchSchemas.forKind(type.group(), type.version(), type.kind()));
  }
}

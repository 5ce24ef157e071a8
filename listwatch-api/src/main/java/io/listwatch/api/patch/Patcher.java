package io.listwatch.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonMergePatch;
import io.listwatch.api.StatusException;
import java.util.Objects;
import java.util.Optional;

/**
 * One patch of a {@code PATCH} request, checked for its shape and ready to apply to the live
 * object, possibly several times (a guaranteed update applies it again after a conflicting
 * write). The API core patches through it.
 *
 * <p>Immutable and thread-safe: {@link #applyTo} never modifies the patch or its argument.
 */
public final class Patcher {

  private final PatchType type;
  private final JsonNode patch;
  private final PatchSchema schema; // null unless strategic merge

  private Patcher(PatchType type, JsonNode patch, PatchSchema schema) {
    this.type = type;
    this.patch = patch;
    this.schema = schema;
  }

  /**
   * The patcher for a request.
   *
   * @param mediaType the request's media type (lower case, without parameters)
   * @param patch the parsed body
   * @param schema the kind's patch schema; empty for a kind that is not built in, which gets
   *     no strategic merge (as a custom resource in kube)
   * @throws StatusException 415 for a media type that is no patch type we serve (or strategic
   *     merge without a schema); 400 or 413 for a body of the wrong shape
   */
  public static Patcher forRequest(String mediaType, JsonNode patch, Optional<PatchSchema> schema) {
    Objects.requireNonNull(patch, "patch");
    PatchType type = patchType(mediaType, schema);
    if (type == PatchType.JSON_PATCH) {
      JsonPatch.check(patch);
    } else if (!patch.isObject()) {
      throw StatusException.badRequest("json: cannot unmarshal " + (patch.isArray() ? "array" : "value")
          + " into Go value of type map[string]interface {}");
    }
    return new Patcher(type, patch, type == PatchType.STRATEGIC_MERGE_PATCH ? schema.orElseThrow() : null);
  }

  /**
   * The patch type a request's media type names. kube checks it before it reads the body, so
   * that a body in a format it does not serve (an apply patch's YAML) gets this 415 rather
   * than a 400 for failing to parse it.
   *
   * @param mediaType the request's media type (lower case, without parameters)
   * @param schema as for {@link #forRequest}
   * @throws StatusException 415 for a media type that is no patch type we serve (or strategic
   *     merge without a schema)
   */
  public static PatchType patchType(String mediaType, Optional<PatchSchema> schema) {
    return PatchType.fromMediaType(mediaType)
        .filter(t -> t != PatchType.STRATEGIC_MERGE_PATCH || schema.isPresent())
        .orElseThrow(() -> unsupported(schema.isPresent()));
  }

  /**
   * kube's 415 for a PATCH: {@code the body of the request was in an unknown format - accepted
   * media types include: ...}, listing strategic merge and server-side apply
   * ({@code application/apply-patch+yaml}, which the server handles before a Patcher is made)
   * for built-in kinds; custom resources are offered JSON and merge patches and apply.
   */
  public static StatusException unsupported(boolean builtin) {
    String accepted = PatchType.JSON_PATCH.mediaType() + ", " + PatchType.MERGE_PATCH.mediaType()
        + (builtin ? ", " + PatchType.STRATEGIC_MERGE_PATCH.mediaType() : "") + ", application/apply-patch+yaml";
    return StatusException.unsupportedMediaType(
        "the body of the request was in an unknown format - accepted media types include: " + accepted);
  }

  public PatchType type() {
    return type;
  }

  /**
   * The live object with this patch applied: a new object.
   *
   * @throws StatusException as {@link JsonPatch} and {@link StrategicMergePatch} answer, or 400
   *     when the result is not an object
   */
  public ObjectNode applyTo(ObjectNode live) {
    JsonNode out = switch (type) {
      case JSON_PATCH -> JsonPatch.apply(live, patch);
      case MERGE_PATCH -> JsonMergePatch.apply(live, patch);
      case STRATEGIC_MERGE_PATCH -> StrategicMergePatch.apply(live, patch, schema);
    };
    if (out instanceof ObjectNode o) {
      return o;
    }
    throw StatusException.badRequest("the patch does not produce an object");
  }
}

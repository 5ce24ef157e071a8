package io.listwatch.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.zjsonpatch.CompatibilityFlags;
import io.fabric8.zjsonpatch.JsonPatchException;
import io.listwatch.api.StatusException;
import java.util.EnumSet;
import java.util.Objects;

/**
 * JSON Patch, RFC 6902 ({@code application/json-patch+json}): {@code add}, {@code remove},
 * {@code replace}, {@code move}, {@code copy} and {@code test}, with JSON Pointer paths
 * ({@code ~1} for {@code /}, {@code ~0} for {@code ~}, {@code -} for the end of an array).
 * Applied by fabric8's zjsonpatch; the answers on failure are kube's:
 * <ul>
 *   <li>a body that is not a JSON array: 400 BadRequest;</li>
 *   <li>more than {@value #MAX_OPERATIONS} operations: 413 RequestEntityTooLarge;</li>
 *   <li>an operation that cannot apply (a failed {@code test}, a missing path, an unknown
 *       {@code op}): 422 with kube's generic message and the reason as its cause
 *       ({@link StatusException#rejected}).</li>
 * </ul>
 * The operations apply in order to a copy, so a failure leaves nothing half-applied.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonPatch {

  /** kube's limit on the operations of one JSON Patch. */
  public static final int MAX_OPERATIONS = 10_000;

  private JsonPatch() {
  }

  /**
   * Checks the shape of a patch document before any object is read.
   *
   * @throws StatusException 400 if it is not an array, 413 if it is too long
   */
  public static void check(JsonNode patch) {
    Objects.requireNonNull(patch, "patch");
    if (!patch.isArray()) {
      throw StatusException.badRequest("json: cannot unmarshal " + describe(patch)
          + " into Go value of type jsonpatch.Patch");
    }
    if (patch.size() > MAX_OPERATIONS) {
      throw StatusException.tooLarge("The allowed maximum operations in a JSON patch is " + MAX_OPERATIONS
          + ", got " + patch.size());
    }
  }

  /**
   * The result of applying {@code patch} to {@code target}; neither is modified.
   *
   * @throws StatusException as described on the class
   */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    check(patch);
    for (JsonNode op : patch) {
      if (!op.isObject()) {
        throw StatusException.badRequest("json: cannot unmarshal " + describe(op)
            + " into Go value of type jsonpatch.Operation");
      }
      String kind = op.path("op").asText("unknown");
      if (!kind.equals("add") && !kind.equals("remove") && !kind.equals("replace") && !kind.equals("move")
          && !kind.equals("copy") && !kind.equals("test")) {
        throw StatusException.rejected("Unexpected kind: " + kind);
      }
    }
    try {
      // kube's JSON Patch refuses to remove a missing key; zjsonpatch does so only when told
      return io.fabric8.zjsonpatch.JsonPatch.apply(patch, target,
          EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT));
    } catch (JsonPatchException e) {
      throw StatusException.rejected(message(e));
    } catch (IllegalArgumentException e) { // a malformed JSON Pointer
      throw StatusException.rejected(e.getMessage());
    }
  }

  /** kube's wording for the common failures; zjsonpatch's own for the rest. */
  private static String message(JsonPatchException e) {
    String path = e.getPath() == null ? "" : e.getPath().toString();
    if (e.getOperation() == null) {
      return e.getMessage();
    }
    return switch (e.getOperation()) {
      case TEST -> "testing value " + path + " failed: test failed";
      case REMOVE -> "remove operation does not apply: doc is missing path: \"" + path + "\": missing value";
      case REPLACE -> "replace operation does not apply: doc is missing key: " + path + ": missing value";
      case ADD -> "add operation does not apply: doc is missing path: \"" + path + "\": missing value";
      case MOVE -> "move operation does not apply: doc is missing from path: " + path + ": missing value";
      case COPY -> "copy operation does not apply: doc is missing from path: " + path + ": missing value";
    };
  }

  private static String describe(JsonNode v) {
    return v.isObject() ? "object" : GoValues.jsonKind(v);
  }
}

package io.listwatch.api.patch;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * JSON Patch, RFC 6902 ({@code application/json-patch+json}): {@code add}, {@code remove},
 * {@code replace}, {@code move}, {@code copy} and {@code test}, with JSON Pointer paths
 * ({@code ~1} for {@code /}, {@code ~0} for {@code ~}, {@code -} for the end of an array).
 * The answers on failure are kube's:
 * <ul>
 *   <li>a body that is not a JSON array: 400 BadRequest;</li>
 *   <li>more than {@value #MAX_OPERATIONS} operations: 413 RequestEntityTooLarge;</li>
 *   <li>an operation that cannot apply (a failed {@code test}, a missing path, an unknown
 *       {@code op}): 422 with kube's generic message and the reason as its cause
 *       ({@link StatusException#rejected});</li>
 *   <li>{@code copy} operations that together add more than {@value #MAX_COPY_BYTES} bytes
 *       (kube's {@code JSONPatchMaxCopyBytes}): 422 the same way, so that k copies of an array
 *       into itself cannot build 2^k elements;</li>
 *   <li>a result nesting deeper than {@link JsonLimits#MAX_OBJECT_DEPTH}: 422 the same way.</li>
 * </ul>
 * The operations apply in order, in place, to one copy of the target, so a failure leaves
 * nothing half-applied and a long patch costs no copy per operation.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonPatch {

  /** kube's limit on the operations of one JSON Patch. */
  public static final int MAX_OPERATIONS = 10_000;
  /** kube's limit on what the copies of one patch may add, in bytes of JSON (its request size limit). */
  public static final long MAX_COPY_BYTES = 3L * 1024 * 1024;

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
    Doc doc = new Doc(target.deepCopy());
    for (JsonNode op : patch) {
      doc.apply(op);
    }
    return doc.root;
  }

  /**
   * The document being patched, and what its copies have added so far. Invariant: the document
   * nests at most {@link JsonLimits#MAX_OBJECT_DEPTH} levels, since every value put in is
   * checked where it goes; so no recursive walk (a copy's deep copy, a test's comparison) ever
   * meets a deeper tree. Confined to one call.
   */
  private static final class Doc {
    JsonNode root;
    long copiedBytes;

    Doc(JsonNode root) {
      this.root = root;
      if (JsonLimits.depth(root, JsonLimits.MAX_OBJECT_DEPTH + 1) > JsonLimits.MAX_OBJECT_DEPTH) {
        throw tooDeep();
      }
    }

    void apply(JsonNode op) {
      String kind = op.path("op").asText();
      String path = pointerText(op, "path", kind);
      JsonPointer at = pointer(path);
      switch (kind) {
        case "add" -> add(at, path, value(op, kind, path), kind);
        case "remove" -> {
          if (at.matches() || remove(at) == null) {
            throw StatusException.rejected("remove operation does not apply: doc is missing path: \"" + path
                + "\": missing value");
          }
        }
        case "replace" -> {
          JsonNode value = value(op, kind, path);
          if (!at.matches() && (root.at(at).isMissingNode() || remove(at) == null)) {
            throw StatusException.rejected("replace operation does not apply: doc is missing key: " + path
                + ": missing value");
          }
          add(at, path, value, kind);
        }
        case "move" -> {
          String fromText = pointerText(op, "from", kind);
          JsonPointer from = pointer(fromText);
          JsonNode moved = from.matches() ? null : root.at(from);
          if (moved == null || moved.isMissingNode()) {
            throw StatusException.rejected("move operation does not apply: doc is missing from path: " + fromText
                + ": missing value");
          }
          if (path.startsWith(fromText + "/")) {
            throw StatusException.rejected("move operation does not apply: path " + path + " is inside from "
                + fromText);
          }
          if (path.equals(fromText)) {
            return;
          }
          remove(from);
          add(at, path, moved, kind);
        }
        case "copy" -> {
          String fromText = pointerText(op, "from", kind);
          JsonPointer from = pointer(fromText);
          JsonNode source = root.at(from);
          if (source.isMissingNode()) {
            throw StatusException.rejected("copy operation does not apply: doc is missing from path: " + fromText
                + ": missing value");
          }
          copiedBytes += jsonSize(source, MAX_COPY_BYTES - copiedBytes + 1);
          if (copiedBytes > MAX_COPY_BYTES) {
            throw StatusException.rejected("Unable to complete the copy, the accumulated size increase of copy is "
                + copiedBytes + ", exceeding the limit " + MAX_COPY_BYTES);
          }
          add(at, path, source.deepCopy(), kind);
        }
        default -> { // test
          JsonNode expected = value(op, kind, path);
          JsonNode actual = at.matches() ? root : root.at(at);
          boolean same = actual.isMissingNode() ? expected.isNull() : actual.equals(NUMBERS_BY_VALUE, expected);
          if (!same) {
            throw StatusException.rejected("testing value " + path + " failed: test failed");
          }
        }
      }
    }

    /** Puts {@code value} at {@code at}: a member set, an element inserted, or the whole document. */
    private void add(JsonPointer at, String path, JsonNode value, String kind) {
      // the value's containers sit below the pointer's segments: the document is now at least that deep
      if (depth(at) + JsonLimits.depth(value, JsonLimits.MAX_OBJECT_DEPTH + 1) > JsonLimits.MAX_OBJECT_DEPTH) {
        throw tooDeep();
      }
      if (at.matches()) {
        root = value;
        return;
      }
      JsonNode parent = root.at(at.head());
      String last = at.last().getMatchingProperty();
      if (parent instanceof ObjectNode o) {
        o.set(last, value);
      } else if (parent instanceof ArrayNode a) {
        int index = last.equals("-") ? a.size() : index(last);
        if (index < 0 || index > a.size()) {
          throw missingPath(kind, path);
        }
        a.insert(index, value);
      } else {
        throw missingPath(kind, path);
      }
    }

    /** Removes what {@code at} names; returns it, or null when there is nothing there. */
    private JsonNode remove(JsonPointer at) {
      JsonNode parent = root.at(at.head());
      String last = at.last().getMatchingProperty();
      if (parent instanceof ObjectNode o) {
        return o.remove(last);
      }
      if (parent instanceof ArrayNode a) {
        int index = index(last);
        return index < 0 || index >= a.size() ? null : a.remove(index);
      }
      return null;
    }

  }

  private static int depth(JsonPointer p) {
    int n = 0;
    for (JsonPointer q = p; !q.matches(); q = q.tail()) {
      n++;
    }
    return n;
  }

  private static StatusException tooDeep() {
    return StatusException.rejected("the patched object would nest more than " + JsonLimits.MAX_OBJECT_DEPTH
        + " levels deep (a list holds an object two levels down)");
  }

  private static StatusException missingPath(String kind, String path) {
    return StatusException.rejected(kind + " operation does not apply: doc is missing path: \"" + path
        + "\": missing value");
  }

  /** An array index as kube reads one: decimal digits, no sign. */
  private static int index(String segment) {
    if (segment.isEmpty() || segment.length() > 9) {
      return -1;
    }
    for (int i = 0; i < segment.length(); i++) {
      if (segment.charAt(i) < '0' || segment.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(segment);
  }

  private static String pointerText(JsonNode op, String field, String kind) {
    JsonNode v = op.get(field);
    if (v == null || !v.isTextual()) {
      throw StatusException.rejected(kind + " operation missing " + field + " string");
    }
    return v.asText();
  }

  private static JsonPointer pointer(String text) {
    try {
      return JsonPointer.compile(text);
    } catch (IllegalArgumentException e) {
      throw StatusException.rejected(e.getMessage());
    }
  }

  private static JsonNode value(JsonNode op, String kind, String path) {
    JsonNode v = op.get("value");
    if (v == null) {
      throw StatusException.rejected(kind + " operation does not apply: doc is missing value for path: " + path);
    }
    return v;
  }

  /** Numbers compare by value, as Go's decoded JSON does ({@code 1} equals {@code 1.0}). */
  private static final java.util.Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    return a.equals(b) ? 0 : 1;
  };

  /** The size of {@code node} as JSON, counted no further than {@code stopAfter} bytes. */
  private static long jsonSize(JsonNode node, long stopAfter) {
    long[] count = {0};
    OutputStream counter = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        add(1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        add(len);
      }

      private void add(long n) throws IOException {
        count[0] += n;
        if (count[0] > stopAfter) {
          throw new IOException("too large");
        }
      }
    };
    try {
      SIZER.writeValue(counter, node);
    } catch (IOException e) {
      // counted past stopAfter
    }
    return count[0];
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper SIZER = JsonLimits.mapper();

  private static String describe(JsonNode v) {
    return v.isObject() ? "object" : GoValues.jsonKind(v);
  }
}

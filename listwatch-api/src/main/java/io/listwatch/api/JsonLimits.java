package io.listwatch.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The limits every reader of an object's JSON applies, in one place, so that the server
 * refuses on write whatever it (or a Jackson-based client such as fabric8) could not read
 * back: a stored object is always readable.
 *
 * <p>The limits are Jackson's defaults, stated here so that an upgrade of Jackson cannot move
 * them under stored data:
 * <ul>
 *   <li>objects and arrays nest at most {@value #MAX_NESTING_DEPTH} levels (the root is
 *       level 1); a stored object at most {@value #MAX_OBJECT_DEPTH}, because a list answer
 *       holds it two levels down ({@code {"items":[...]}}) and a reader reads the list whole;</li>
 *   <li>a field name has at most {@value #MAX_NAME_LENGTH} bytes of UTF-8 (a managedFields
 *       key such as {@code k:{"name":"..."}} carries a list element's key inside it);</li>
 *   <li>a string has at most {@value #MAX_STRING_LENGTH} characters;</li>
 *   <li>a number has at most {@value #MAX_NUMBER_LENGTH} characters.</li>
 * </ul>
 * kube-apiserver (Go) has no such limits beyond its request size, but Go would refuse to
 * store what it cannot decode too; its validation refuses most long names earlier anyway
 * (a container name is a DNS label). The server checks the bytes it is about to store with
 * {@link #violation(byte[])} and answers 422 Invalid naming the field; see
 * docs/reliability.md.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonLimits {

  /** How deep objects and arrays may nest; the root object is level 1. */
  public static final int MAX_NESTING_DEPTH = 1000;
  /**
   * How deep a stored object may nest: a list answer ({@code {"items":[object]}}) puts it two
   * levels below the root, a watch event one, and the reader takes the answer whole.
   */
  public static final int MAX_OBJECT_DEPTH = MAX_NESTING_DEPTH - 2;
  /** The longest field name, in bytes of UTF-8. */
  public static final int MAX_NAME_LENGTH = 50_000;
  /** The longest string value, in characters. */
  public static final int MAX_STRING_LENGTH = 20_000_000;
  /** The longest number, in characters. */
  public static final int MAX_NUMBER_LENGTH = 1000;

  /** What a reader enforces. */
  public static final StreamReadConstraints READ = StreamReadConstraints.builder()
      .maxNestingDepth(MAX_NESTING_DEPTH)
      .maxNameLength(MAX_NAME_LENGTH)
      .maxStringLength(MAX_STRING_LENGTH)
      .maxNumberLength(MAX_NUMBER_LENGTH)
      .build();

  /**
   * What a writer enforces: no more than a reader takes. A tree deeper than
   * {@link #MAX_NESTING_DEPTH} fails to serialize instead of writing bytes no reader takes.
   */
  public static final StreamWriteConstraints WRITE = StreamWriteConstraints.builder()
      .maxNestingDepth(MAX_NESTING_DEPTH)
      .build();

  /** Reads an object about to be stored: as {@link #READ}, nesting no deeper than {@link #MAX_OBJECT_DEPTH}. */
  private static final JsonFactory STORED = new JsonFactoryBuilder()
      .streamReadConstraints(READ.rebuild().maxNestingDepth(MAX_OBJECT_DEPTH).build())
      .streamWriteConstraints(WRITE).build();

  private JsonLimits() {
  }

  private static JsonFactory factory() {
    return new JsonFactoryBuilder().streamReadConstraints(READ).streamWriteConstraints(WRITE).build();
  }

  /** A new mapper with these limits. */
  public static ObjectMapper mapper() {
    return new ObjectMapper(factory());
  }

  /**
   * Why {@code json}, an object about to be stored, could not be read back alone, in a list or
   * in a watch event, as a 422 cause naming the field; or empty when it is one readable JSON
   * object. Reads the bytes as a reader would, without building a tree.
   */
  public static Optional<Status.Cause> violation(byte[] json) {
    JsonParser p;
    try {
      p = STORED.createParser(json);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // not for bytes in memory
    }
    try (p) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return Optional.of(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: not a JSON object", null));
      }
      // every value as a reader takes it: strings are decoded (skipping them would not check their length)
      for (JsonToken t = p.nextToken(); p.getParsingContext().getParent() != null || t != JsonToken.END_OBJECT;
          t = p.nextToken()) {
        if (t == JsonToken.VALUE_STRING) {
          p.getTextLength();
        }
      }
      if (p.nextToken() != null) {
        return Optional.of(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: more than one JSON value",
            null));
      }
      return Optional.empty();
    } catch (StreamConstraintsException e) {
      return Optional.of(cause(e, p));
    } catch (IOException e) {
      // e.g. a double beyond range, which Jackson writes as a bare Infinity
      String message = e instanceof com.fasterxml.jackson.core.JsonProcessingException pe ? pe.getOriginalMessage()
          : e.getMessage();
      return Optional.of(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
          "Invalid value: not valid JSON once stored: " + firstLine(message), fieldPath(p.getParsingContext())));
    }
  }

  /**
   * Whether {@code json}, the bytes written for {@code tree}, needs {@link #violation(byte[])}
   * after {@link #depthViolation} passed: only a document longer than the longest field name
   * can hold a name or a string too long, and only a big or fractional number can be too long
   * or not finite (which Jackson writes as a bare {@code Infinity}). When false, {@code violation(json)} is
   * empty, without parsing the bytes again.
   */
  public static boolean needsCheck(JsonNode tree, byte[] json) {
    if (json.length > MAX_NAME_LENGTH) {
      return true;
    }
    return hasRiskyNumber(tree);
  }

  /** Whether {@code node} holds a big or fractional number; its depth is bounded by {@link #depthViolation}. */
  private static boolean hasRiskyNumber(JsonNode node) {
    if (node.isContainerNode()) {
      for (JsonNode child : node) {
        if (hasRiskyNumber(child)) {
          return true;
        }
      }
      return false;
    }
    return node.isNumber() && (node.isBigInteger() || node.isBigDecimal() || node.isFloatingPointNumber());
  }

  /**
   * Fails when {@code tree} nests deeper than {@link #MAX_OBJECT_DEPTH}: for trees built by
   * the server (a patch applied) before anything recursive (a copy, a comparison, serializing)
   * walks them. Iterative, so any depth is safe to check.
   *
   * @return the cause naming the first field too deep, or empty
   */
  public static Optional<Status.Cause> depthViolation(JsonNode tree) {
    int depth = depth(tree, MAX_OBJECT_DEPTH + 1);
    if (depth <= MAX_OBJECT_DEPTH) {
      return Optional.empty();
    }
    return Optional.of(tooDeep(null));
  }

  /**
   * How deep {@code node} nests (a scalar is 0, an empty object 1), counting no further than
   * {@code stopAt}: it never descends below that level, so its own depth is bounded.
   */
  public static int depth(JsonNode node, int stopAt) {
    if (node == null || !node.isContainerNode()) {
      return 0;
    }
    return nesting(node, 1, stopAt);
  }

  private static int nesting(JsonNode container, int level, int stopAt) {
    int max = level;
    if (max >= stopAt) {
      return max;
    }
    for (JsonNode child : container) {
      if (child.isContainerNode()) {
        max = Math.max(max, nesting(child, level + 1, stopAt));
        if (max >= stopAt) {
          return max;
        }
      }
    }
    return max;
  }

  private static Status.Cause cause(StreamConstraintsException e, JsonParser p) {
    String message = e.getOriginalMessage();
    JsonStreamContext at = p == null ? null : p.getParsingContext();
    String field = at == null ? null : fieldPath(at);
    String detail;
    if (message.contains("Name length")) {
      // the name being read is not the context's yet: name the object that holds it
      field = fieldPath(at == null ? null : at.getParent());
      detail = "Too long: a field name may not be more than " + MAX_NAME_LENGTH + " bytes";
    } else if (message.contains("String value length")) {
      detail = "Too long: a string may not be more than " + MAX_STRING_LENGTH + " characters";
    } else if (message.contains("Number value length")) {
      detail = "Too long: a number may not be more than " + MAX_NUMBER_LENGTH + " characters";
    } else if (message.contains("nesting depth")) {
      return tooDeep(field);
    } else {
      detail = "Too long: " + firstLine(message);
    }
    return new Status.Cause(Reasons.FIELD_VALUE_TOO_LONG, detail, field);
  }

  private static Status.Cause tooDeep(String field) {
    return new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: objects and arrays may not nest more than "
        + MAX_OBJECT_DEPTH + " levels deep (a list holds an object two levels down)", field);
  }

  /** The field path of a parser's position as kube writes one: {@code spec.containers[0].name}. */
  static String fieldPath(JsonStreamContext context) {
    List<String> parts = new ArrayList<>();
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.add("[" + Math.max(0, c.getCurrentIndex()) + "]");
      } else if (c.getCurrentName() != null) {
        parts.add(c.getCurrentName());
      }
    }
    StringBuilder out = new StringBuilder();
    for (int i = parts.size() - 1; i >= 0; i--) {
      String part = parts.get(i);
      if (!part.startsWith("[") && !out.isEmpty()) {
        out.append('.');
      }
      out.append(part.length() > 64 ? part.substring(0, 64) + "..." : part);
    }
    return out.isEmpty() ? null : out.toString();
  }

  private static String firstLine(String s) {
    int nl = s == null ? -1 : s.indexOf('\n');
    return s == null ? "" : nl < 0 ? s : s.substring(0, nl);
  }
}

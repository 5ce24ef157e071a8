package io.listwatch.client.testing;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.listwatch.api.StatusException;
import io.listwatch.client.ObjectCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * JSON-tree helpers of the fake: converting objects to and from trees through any
 * {@link ObjectCodec}, and reading metadata from a tree. Stateless; thread-safe.
 *
 * <p>Trees held by the {@link ObjectTracker} are never mutated once stored: every write
 * builds a new tree, and everything handed out is decoded from, or a deep copy of, a stored
 * tree.
 */
final class Trees {

  /** Only builds trees and parsers over them; carries no configuration. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Trees() {
  }

  /**
   * Encodes {@code object} with {@code codec} into a fresh tree (through a token buffer, so
   * any codec works).
   *
   * @throws StatusException 400 if the codec does not write a JSON object
   */
  static <T> ObjectNode encode(ObjectCodec<T> codec, T object) {
    if (object == null) {
      throw new IllegalArgumentException("object must not be null");
    }
    try (TokenBuffer buffer = new TokenBuffer(MAPPER, false)) {
      codec.encode(object, buffer);
      JsonNode node = MAPPER.readTree(buffer.asParser(MAPPER));
      if (node instanceof ObjectNode tree) {
        return tree;
      }
      throw StatusException.badRequest("the body of the request must be a JSON object, the codec of "
          + codec.type().getName() + " wrote " + (node == null ? "nothing" : node.getNodeType()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a " + codec.type().getName(), e);
    }
  }

  /** Decodes a new {@code T} from {@code tree} (which is only read). */
  static <T> T decode(ObjectCodec<T> codec, ObjectNode tree) {
    try (JsonParser parser = MAPPER.treeAsTokens(tree)) {
      parser.nextToken();
      return codec.decode(parser);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot decode a " + codec.type().getName(), e);
    }
  }

  /** {@code metadata}, created when absent. @throws StatusException 400 if not an object */
  static ObjectNode metadata(ObjectNode object) {
    JsonNode meta = object.get("metadata");
    if (meta == null || meta.isNull()) {
      return object.putObject("metadata");
    }
    if (meta instanceof ObjectNode m) {
      return m;
    }
    throw StatusException.badRequest("metadata must be an object");
  }

  /** A metadata string field, {@code ""} when absent; never creates metadata. */
  static String meta(ObjectNode object, String field) {
    JsonNode value = object.path("metadata").path(field);
    return value.isValueNode() && !value.isNull() ? value.asText() : "";
  }

  /** {@code metadata.labels} as a map (a copy). */
  static Map<String, String> labels(ObjectNode object) {
    Map<String, String> labels = new HashMap<>();
    object.path("metadata").path("labels").properties()
        .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    return labels;
  }

  /**
   * A field selector's value: {@code metadata.name} and {@code metadata.namespace}, or any
   * dotted path into the object read as text (booleans {@code true}/{@code false}, numbers in
   * decimal); {@code ""} when absent or not a scalar.
   */
  static String field(ObjectNode object, String path) {
    JsonNode node = object;
    for (String part : path.split("\\.", -1)) {
      node = node.path(part);
    }
    return node.isValueNode() && !node.isNull() ? node.asText() : "";
  }

  /** A copy of {@code object} with {@code metadata.resourceVersion} set to {@code rv}. */
  static ObjectNode restamp(ObjectNode object, long rv) {
    ObjectNode copy = object.deepCopy();
    metadata(copy).put("resourceVersion", Long.toString(rv));
    return copy;
  }

  /** The tracker's key of an object: {@code namespace/name}, or {@code name} when cluster-scoped. */
  static String key(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** The part of {@code all} in {@code namespace} ({@code ""}: all), from {@code start} (inclusive) on. */
  static NavigableMap<String, ObjectNode> inNamespace(NavigableMap<String, ObjectNode> all,
      String namespace, String start) {
    String prefix = namespace.isEmpty() ? "" : namespace + "/";
    String from = start != null && start.compareTo(prefix) > 0 ? start : prefix;
    if (prefix.isEmpty()) {
      return all.tailMap(from, true);
    }
    String end = namespace + (char) ('/' + 1);
    return from.compareTo(end) >= 0 ? new TreeMap<>() : all.subMap(from, true, end, false);
  }
}

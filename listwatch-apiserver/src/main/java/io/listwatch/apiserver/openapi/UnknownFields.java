package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the fields of a JSON body that its type does not have ({@code unknown field "spec.foo"})
 * and the keys an object repeats ({@code duplicate field "metadata.name"}), in document order,
 * and prunes unknown fields from a parsed object, as kube's strict JSON decoding into its typed
 * structs does. Paths are kube's: fields joined by dots, list items by index
 * ({@code spec.containers[0].foo}).
 *
 * <p>Free-form values ({@code RawExtension}, {@code FieldsV1}: objects without properties) and
 * anything below an unknown field are not looked into. A value of the wrong JSON type is left for
 * other checks.
 *
 * <p>Immutable and thread-safe.
 */
final class UnknownFields {

  private static final JsonFactory JSON = new JsonFactory();

  /** Definitions in {@link ProtoSchemas.Dialect#OPENAPI_3}, by name. */
  private final Map<String, ObjectNode> definitions;
  /** {@link #definitions}' references, followed once. */
  private final SchemaRefs refs;

  UnknownFields(Map<String, ObjectNode> definitions) {
    this.definitions = Map.copyOf(definitions);
    this.refs = new SchemaRefs(this.definitions);
  }

  /** Whether {@code definition} is known. */
  boolean knows(String definition) {
    return definitions.containsKey(definition);
  }

  /**
   * The unknown and duplicate fields of {@code json} read as {@code definition}, in document
   * order, each as kube words it. Empty for a well-formed body of that type.
   *
   * @throws IOException when {@code json} is not well-formed JSON
   */
  List<String> find(String definition, byte[] json) throws IOException {
    List<String> errors = new ArrayList<>();
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != null) {
        walk(p, definitions.get(definition), "", errors);
      }
    }
    return errors;
  }

  /** The duplicate fields of {@code json} anywhere, in document order (no schema needed). */
  static List<String> duplicates(byte[] json) throws IOException {
    List<String> errors = new ArrayList<>();
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != null) {
        new UnknownFields(Map.of()).walk(p, null, "", errors);
      }
    }
    return errors;
  }

  /**
   * The unknown fields of an already parsed object (no duplicates can be seen there), in
   * document order; with {@code prune}, removes them from {@code object}.
   */
  List<String> findInTree(String definition, JsonNode object, boolean prune) {
    List<String> errors = new ArrayList<>();
    walkTree(object, definitions.get(definition), "", errors, prune);
    return errors;
  }

  private ObjectNode resolve(JsonNode schema) {
    return refs.resolve(schema);
  }

  /** What an object of this schema is checked as. */
  private enum Shape { STRUCT, MAP, FREE }

  private static Shape shape(ObjectNode schema) {
    if (schema == null) {
      return Shape.FREE;
    }
    if (schema.has("properties")) {
      return Shape.STRUCT;
    }
    if (schema.has("additionalProperties")) {
      return Shape.MAP;
    }
    return Shape.FREE;
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /**
   * The path of a value below {@code path}, for walking into it: built only for an object or a
   * list (a scalar has nothing below it that needs its path), so that a well-formed body costs
   * no string per field.
   */
  private static String childIfContainer(boolean container, String path, String name) {
    return container ? child(path, name) : path;
  }

  /**
   * Walks the value at the parser's current token. {@code schema} null means "anything": only
   * duplicates are looked for (in {@link #duplicates}), or nothing below an object without
   * properties.
   */
  private void walk(JsonParser p, ObjectNode schema, String path, List<String> errors) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      boolean schemaless = definitions.isEmpty();
      Shape shape = shape(schema);
      if (!schemaless && shape == Shape.FREE) {
        p.skipChildren();
        return;
      }
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        String at = childIfContainer(value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY, path, name);
        if (!seen.add(name)) {
          errors.add("duplicate field \"" + child(path, name) + "\"");
        }
        if (schemaless) {
          walk(p, null, at, errors);
        } else if (shape == Shape.MAP) {
          walk(p, resolve(schema.get("additionalProperties")), at, errors);
        } else {
          JsonNode property = schema.get("properties").get(name);
          if (property == null) {
            errors.add("unknown field \"" + child(path, name) + "\"");
            p.skipChildren();
          } else {
            walk(p, resolve(property), at, errors);
          }
        }
      }
    } else if (t == JsonToken.START_ARRAY) {
      ObjectNode items = schema == null ? null : resolve(schema.get("items"));
      if (items == null && !definitions.isEmpty()) {
        p.skipChildren();
        return;
      }
      int i = 0;
      for (JsonToken value = p.nextToken(); value != JsonToken.END_ARRAY; value = p.nextToken()) {
        boolean container = value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY;
        walk(p, items, container ? path + "[" + i + "]" : path, errors);
        i++;
      }
    }
  }

  private void walkTree(JsonNode node, ObjectNode schema, String path, List<String> errors, boolean prune) {
    if (node.isObject()) {
      Shape shape = shape(schema);
      if (shape == Shape.FREE) {
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String at = childIfContainer(e.getValue().isContainerNode(), path, e.getKey());
        if (shape == Shape.MAP) {
          walkTree(e.getValue(), resolve(schema.get("additionalProperties")), at, errors, prune);
          continue;
        }
        JsonNode property = schema.get("properties").get(e.getKey());
        if (property == null) {
          errors.add("unknown field \"" + child(path, e.getKey()) + "\"");
          if (prune) {
            it.remove();
          }
        } else {
          walkTree(e.getValue(), resolve(property), at, errors, prune);
        }
      }
    } else if (node.isArray()) {
      ObjectNode items = schema == null ? null : resolve(schema.get("items"));
      if (items == null) {
        return;
      }
      for (int i = 0; i < node.size(); i++) {
        walkTree(node.get(i), items, node.get(i).isContainerNode() ? path + "[" + i + "]" : path, errors, prune);
      }
    }
  }
}

package io.listwatch.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reading an {@code openAPIV3Schema} held as a Jackson tree, and building kube's field paths
 * ({@code field.Path}: {@code a.b}, {@code a[key]}, {@code a[0]}).
 *
 * <p>Public for the server's CEL rules, which read the same schemas; not meant for users.
 * Stateless; thread-safe.
 */
public final class SchemaNodes {

  static final String PRESERVE_UNKNOWN_FIELDS = "x-kubernetes-preserve-unknown-fields";
  static final String EMBEDDED_RESOURCE = "x-kubernetes-embedded-resource";
  static final String INT_OR_STRING = "x-kubernetes-int-or-string";
  static final String LIST_TYPE = "x-kubernetes-list-type";
  static final String LIST_MAP_KEYS = "x-kubernetes-list-map-keys";
  static final String MAP_TYPE = "x-kubernetes-map-type";

  private SchemaNodes() {
  }

  /** {@code path.Child(name)}. */
  static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** {@code path.Key(key)}. */
  static String key(String path, String key) {
    return path + "[" + key + "]";
  }

  /** {@code path.Index(i)}. */
  static String index(String path, int i) {
    return path + "[" + i + "]";
  }

  /** The schema's {@code type}, or "" when unset. */
  public static String type(JsonNode s) {
    JsonNode t = s.path("type");
    return t.isTextual() ? t.textValue() : "";
  }

  /** A boolean keyword or extension; false when unset or not a boolean. */
  public static boolean flag(JsonNode s, String name) {
    return s.path(name).asBoolean(false) && s.path(name).isBoolean();
  }

  /** A string keyword or extension, or null when unset. */
  public static String text(JsonNode s, String name) {
    JsonNode v = s.get(name);
    return v != null && v.isTextual() ? v.textValue() : null;
  }

  /** The schema's {@code properties}, sorted by name so errors come in a stable order. */
  static Map<String, JsonNode> properties(JsonNode s) {
    Map<String, JsonNode> out = new TreeMap<>();
    JsonNode props = s.get("properties");
    if (props != null && props.isObject()) {
      props.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
    }
    return out;
  }

  /** The {@code items} schema when it is a single schema object, else null. */
  public static JsonNode items(JsonNode s) {
    JsonNode items = s.get("items");
    return items != null && items.isObject() ? items : null;
  }

  /** The {@code additionalProperties} schema when it is a schema object, else null. */
  public static JsonNode additionalPropertiesSchema(JsonNode s) {
    JsonNode ap = s.get("additionalProperties");
    return ap != null && ap.isObject() ? ap : null;
  }

  /** A keyword's value, or a missing node. */
  static JsonNode get(JsonNode s, String name) {
    JsonNode v = s.get(name);
    return v == null ? MissingNode.getInstance() : v;
  }

  /** A string-array keyword (e.g. {@code required}), empty when unset. */
  static List<String> strings(JsonNode s, String name) {
    List<String> out = new ArrayList<>();
    JsonNode v = s.get(name);
    if (v != null && v.isArray()) {
      v.forEach(e -> out.add(e.asText()));
    }
    return out;
  }
}

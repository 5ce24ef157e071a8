package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.schema.SchemaNodes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reading the parts of a structural {@code openAPIV3Schema} (a Jackson tree) that CEL rules
 * depend on. Stateless; thread-safe.
 */
final class Schemas {

  private Schemas() {
  }

  /** The schema's {@code type}, or "" when unset. */
  static String type(JsonNode s) {
    return SchemaNodes.type(s);
  }

  /** A boolean extension; false when unset. */
  static boolean flag(JsonNode s, String name) {
    return SchemaNodes.flag(s, name);
  }

  /** A string keyword or extension, or null when unset. */
  static String text(JsonNode s, String name) {
    return SchemaNodes.text(s, name);
  }

  /** The {@code properties}, in the schema's order. */
  static Map<String, JsonNode> properties(JsonNode s) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    JsonNode props = s.get("properties");
    if (props != null && props.isObject()) {
      props.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
    }
    return out;
  }

  /** The {@code items} schema, or null. */
  static JsonNode items(JsonNode s) {
    return SchemaNodes.items(s);
  }

  /** The {@code additionalProperties} schema when it is a schema object, or null. */
  static JsonNode additionalProperties(JsonNode s) {
    return SchemaNodes.additionalPropertiesSchema(s);
  }

  /** Whether CEL sees values of this schema as {@code dyn}. */
  static boolean isDyn(JsonNode s) {
    if (flag(s, "x-kubernetes-int-or-string")) {
      return true;
    }
    String type = type(s);
    if (type.isEmpty()) {
      return true;
    }
    return type.equals("object") && flag(s, "x-kubernetes-preserve-unknown-fields")
        && properties(s).isEmpty() && additionalProperties(s) == null;
  }

  /** Whether an object's fields correlate with the old object's ({@code map-type} not atomic). */
  static boolean mapCorrelatable(JsonNode s) {
    return !"atomic".equals(text(s, "x-kubernetes-map-type"));
  }

  /** Whether a list's items correlate with the old list's: a list-map, by its keys. */
  static boolean listCorrelatable(JsonNode s) {
    return "map".equals(text(s, "x-kubernetes-list-type"));
  }
}

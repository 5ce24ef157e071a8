package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.flag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's structural defaulting: fills in {@code default} values, in place, top-down.
 *
 * <p>For each object, first every property with a default that is missing, or {@code null}
 * while its schema is not {@code nullable}, gets a copy of the default; then each property is
 * defaulted in turn, so a default's own fields receive their defaults too. Map values
 * ({@code additionalProperties}) and list items that are a non-nullable {@code null} get their
 * schema's default the same way. kube defaults on create and update, and when it reads an
 * object from storage; the caller decides when.
 *
 * <p>As in kube, a list item or map value replaced by its default is not defaulted further,
 * and nothing happens inside values the schema does not describe.
 *
 * <p>Stateless; thread-safe (the defaulted object belongs to the caller).
 */
public final class Defaulter {

  private Defaulter() {
  }

  /** Applies the schema's defaults to {@code value}, in place. */
  public static void apply(JsonNode schema, JsonNode value) {
    if (schema == null || !schema.isObject()) {
      return;
    }
    if (value instanceof ObjectNode object) {
      defaultObject(schema, object);
    } else if (value instanceof ArrayNode array) {
      JsonNode items = SchemaNodes.items(schema);
      for (int i = 0; i < array.size(); i++) {
        JsonNode item = array.get(i);
        if (isNonNullableNull(item, items)) {
          array.set(i, items.get("default").deepCopy());
        }
        apply(items, item);
      }
    }
  }

  private static void defaultObject(JsonNode schema, ObjectNode object) {
    Map<String, JsonNode> props = SchemaNodes.properties(schema);
    props.forEach((name, prop) -> {
      if (hasDefault(prop) && (!object.has(name) || isNonNullableNull(object.get(name), prop))) {
        object.set(name, prop.get("default").deepCopy());
      }
    });
    JsonNode additional = SchemaNodes.additionalPropertiesSchema(schema);
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      if (props.containsKey(name)) {
        apply(props.get(name), object.get(name));
      } else if (additional != null) {
        JsonNode original = object.get(name);
        if (isNonNullableNull(original, additional)) {
          object.set(name, additional.get("default").deepCopy());
        }
        apply(additional, original);
      }
    }
  }

  private static boolean hasDefault(JsonNode s) {
    return s != null && s.has("default") && !s.get("default").isNull();
  }

  private static boolean isNonNullableNull(JsonNode v, JsonNode s) {
    return v != null && v.isNull() && hasDefault(s) && !flag(s, "nullable");
  }
}

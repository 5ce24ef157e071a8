package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.values.NullValue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value as the CEL value {@code self} holds, shaped by its schema the way
 * {@link DeclTypes} types it: integers as {@code Long}, numbers as {@code Double} (also when
 * written without a fraction), strings (as bytes, durations or timestamps for those formats,
 * see {@link FormattedStrings}), booleans, lists, and objects as maps (struct fields
 * under their escaped names, only the declared properties; a resource's {@code metadata} with
 * only {@code name} and {@code generateName}). JSON null is CEL's {@code null}.
 *
 * <p>Stateless; thread-safe. Values are built fresh for each evaluation and never shared.
 */
final class CelValues {

  private CelValues() {
  }

  static Object of(JsonNode value, JsonNode schema, boolean resourceRoot) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return NullValue.NULL_VALUE;
    }
    if (schema == null || !schema.isObject() || Schemas.isDyn(schema)) {
      return dyn(value);
    }
    boolean embedded = resourceRoot || Schemas.flag(schema, "x-kubernetes-embedded-resource");
    switch (Schemas.type(schema)) {
      case "object" -> {
        if (!value.isObject()) {
          return dyn(value);
        }
        JsonNode additional = Schemas.additionalProperties(schema);
        if (additional != null && !embedded) {
          Map<String, Object> map = new LinkedHashMap<>();
          value.fields().forEachRemaining(e ->
              map.put(e.getKey(), of(e.getValue(), additional, false)));
          return map;
        }
        return struct(value, schema, embedded);
      }
      case "array" -> {
        if (!value.isArray()) {
          return dyn(value);
        }
        JsonNode items = Schemas.items(schema);
        List<Object> list = new ArrayList<>(value.size());
        for (JsonNode item : value) {
          list.add(items == null ? dyn(item) : of(item, items, false));
        }
        return list;
      }
      case "integer" -> {
        return value.isNumber() ? (Object) value.longValue() : dyn(value);
      }
      case "number" -> {
        return value.isNumber() ? (Object) value.doubleValue() : dyn(value);
      }
      case "string" -> {
        return value.isTextual() ? FormattedStrings.of(value.textValue(),
            Schemas.text(schema, "format")) : dyn(value);
      }
      default -> {
        return dyn(value);
      }
    }
  }

  private static Map<String, Object> struct(JsonNode value, JsonNode schema, boolean embedded) {
    Map<String, JsonNode> props = Schemas.properties(schema);
    Map<String, Object> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      if (embedded && (key.equals("apiVersion") || key.equals("kind"))) {
        out.put(key, dyn(e.getValue()));
      } else if (embedded && key.equals("metadata")) {
        Map<String, Object> meta = new LinkedHashMap<>();
        for (String f : List.of("name", "generateName")) {
          if (e.getValue().hasNonNull(f)) {
            meta.put(f, dyn(e.getValue().get(f)));
          }
        }
        out.put(key, meta);
      } else if (props.containsKey(key)) {
        String field = DeclTypes.escape(key);
        if (field != null) {
          out.put(field, of(e.getValue(), props.get(key), false));
        }
      }
    }
    return out;
  }

  /** A value typed {@code dyn}: its CEL type follows the JSON. */
  static Object dyn(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return NullValue.NULL_VALUE;
    }
    if (value.isTextual()) {
      return value.textValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isArray()) {
      List<Object> list = new ArrayList<>(value.size());
      value.forEach(v -> list.add(dyn(v)));
      return list;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    value.fields().forEachRemaining(e -> map.put(e.getKey(), dyn(e.getValue())));
    return map;
  }
}

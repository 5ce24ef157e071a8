package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.LIST_MAP_KEYS;
import static io.listwatch.api.schema.SchemaNodes.LIST_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's list-type validation of an object: no two items of an {@code x-kubernetes-list-type:
 * set} list are equal, and no two items of a {@code map} list have the same values for the
 * {@code x-kubernetes-list-map-keys}. Each later duplicate gets
 * {@code spec.ports[1]: Duplicate value: ...}, the value being the item for a set and the
 * item's keys for a map.
 *
 * <p>Stateless; thread-safe.
 */
final class ListTypes {

  private ListTypes() {
  }

  static List<FieldError> validate(JsonNode schema, JsonNode value, String path) {
    List<FieldError> errors = new ArrayList<>();
    walk(schema, value, path, errors);
    return errors;
  }

  private static void walk(JsonNode s, JsonNode v, String path, List<FieldError> errors) {
    if (s == null || !s.isObject() || v == null) {
      return;
    }
    if (v.isArray()) {
      String listType = SchemaNodes.text(s, LIST_TYPE);
      if ("set".equals(listType)) {
        set(v, path, errors);
      } else if ("map".equals(listType)) {
        map(v, SchemaNodes.strings(s, LIST_MAP_KEYS), path, errors);
      }
      JsonNode items = SchemaNodes.items(s);
      for (int i = 0; i < v.size(); i++) {
        walk(items, v.get(i), SchemaNodes.index(path, i), errors);
      }
    } else if (v.isObject()) {
      Map<String, JsonNode> props = SchemaNodes.properties(s);
      JsonNode additional = SchemaNodes.additionalPropertiesSchema(s);
      for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode sub = props.containsKey(e.getKey()) ? props.get(e.getKey()) : additional;
        walk(sub, e.getValue(), SchemaNodes.child(path, e.getKey()), errors);
      }
    }
  }

  private static void set(JsonNode list, String path, List<FieldError> errors) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      if (!seen.add(FieldError.goJson(list.get(i)))) {
        errors.add(FieldError.duplicate(SchemaNodes.index(path, i), list.get(i)));
      }
    }
  }

  private static void map(JsonNode list, List<String> keys, String path, List<FieldError> errors) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      if (!item.isObject()) {
        continue;
      }
      ObjectNode key = JsonNodeFactory.instance.objectNode();
      for (String k : keys) {
        if (item.has(k)) {
          key.set(k, item.get(k));
        }
      }
      if (!seen.add(FieldError.goJson(key))) {
        errors.add(FieldError.duplicate(SchemaNodes.index(path, i), key));
      }
    }
  }
}

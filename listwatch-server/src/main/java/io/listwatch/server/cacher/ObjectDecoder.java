package io.listwatch.server.cacher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.registry.ResourceDefinition;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns stored JSON into a {@link CachedObject}: stamps {@code metadata.resourceVersion}
 * with the storage revision (storage does not know its own revision when a value is
 * written, as in kube) and extracts labels and selectable fields. Thread-safe.
 */
final class ObjectDecoder {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private final ResourceDefinition def;

  ObjectDecoder(ResourceDefinition def) {
    this.def = def;
  }

  CachedObject decode(String key, long resourceVersion, byte[] stored) {
    try {
      ObjectNode tree = (ObjectNode) MAPPER.readTree(stored);
      return fromTree(key, resourceVersion, tree);
    } catch (IOException | ClassCastException e) {
      throw new IllegalStateException("stored object at " + key + " is not a JSON object", e);
    }
  }

  /** The same object with another resourceVersion (a deletion's). */
  CachedObject restamp(CachedObject o, long resourceVersion) {
    return decode(o.key(), resourceVersion, o.json());
  }

  CachedObject fromTree(String key, long resourceVersion, ObjectNode tree) throws IOException {
    JsonNode m = tree.get("metadata");
    ObjectNode meta = m instanceof ObjectNode mo ? mo : tree.putObject("metadata");
    meta.put("resourceVersion", Long.toString(resourceVersion));
    Map<String, String> labels = new HashMap<>();
    JsonNode l = meta.get("labels");
    if (l != null && l.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = l.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        labels.put(e.getKey(), e.getValue().asText());
      }
    }
    byte[] json = MAPPER.writeValueAsBytes(tree);
    return new CachedObject(key, text(meta, "namespace"), text(meta, "name"), resourceVersion, json,
        Map.copyOf(labels), Map.copyOf(def.selectableFieldValues(tree)));
  }

  private static String text(JsonNode meta, String field) {
    JsonNode v = meta.get(field);
    return v == null || v.isNull() ? "" : v.asText();
  }
}

package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.EMBEDDED_RESOURCE;
import static io.listwatch.api.schema.SchemaNodes.PRESERVE_UNKNOWN_FIELDS;
import static io.listwatch.api.schema.SchemaNodes.flag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Strconv;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's pruning: removes from a custom resource every field its structural schema does not
 * specify, in place, and says which.
 *
 * <p>The rules, as kube applies them:
 * <ul>
 *   <li>a field is kept when the object's schema lists it in {@code properties}, or has an
 *       {@code additionalProperties} schema (the value is then pruned by that schema), or says
 *       {@code x-kubernetes-preserve-unknown-fields: true} (unknown fields are kept whole, the
 *       specified ones are still pruned by their schema); {@code additionalProperties: true}
 *       keeps map values as they are;</li>
 *   <li>list items are pruned by the {@code items} schema;</li>
 *   <li>at the resource root and in every {@code x-kubernetes-embedded-resource},
 *       {@code apiVersion} and {@code kind} (when strings) and {@code metadata} (when an
 *       object) are kept as they are: ObjectMeta has its own rules.</li>
 * </ul>
 *
 * <p>The returned paths are what {@code fieldValidation=Warn} warns about and
 * {@code fieldValidation=Strict} refuses: {@code spec.foo}, {@code spec.ports[0].foo}; see
 * {@link #unknownField(String)}.
 *
 * <p>Stateless; thread-safe (the pruned object belongs to the caller).
 */
public final class Pruner {

  private Pruner() {
  }

  /**
   * Prunes a whole custom resource in place.
   *
   * @return the paths of the removed fields, in the order met
   */
  public static List<String> prune(JsonNode schema, JsonNode object) {
    return prune(schema, object, true);
  }

  /**
   * Prunes {@code value} in place; {@code isResourceRoot} keeps its type and object meta as at
   * a resource root (false for a default value deep in a schema, say).
   */
  public static List<String> prune(JsonNode schema, JsonNode value, boolean isResourceRoot) {
    List<String> pruned = new ArrayList<>();
    walk(value, schema, isResourceRoot, "", pruned);
    return pruned;
  }

  /** The warning, or Strict error detail, for a pruned path: {@code unknown field "spec.foo"}. */
  public static String unknownField(String path) {
    return "unknown field " + Strconv.quote(path);
  }

  private static void walk(JsonNode v, JsonNode s, boolean embedded, String path,
      List<String> pruned) {
    if (v instanceof ObjectNode object) {
      pruneObject(object, s, embedded || s != null && flag(s, EMBEDDED_RESOURCE), path, pruned);
    } else if (v instanceof ArrayNode array) {
      JsonNode items = s == null ? null : SchemaNodes.items(s);
      for (int i = 0; i < array.size(); i++) {
        walk(array.get(i), items, false, path + "[" + i + "]", pruned);
      }
    }
  }

  private static void pruneObject(ObjectNode object, JsonNode s, boolean embedded, String path,
      List<String> pruned) {
    Map<String, JsonNode> props = s == null ? Map.of() : SchemaNodes.properties(s);
    JsonNode additional = s == null ? null : s.get("additionalProperties");
    boolean preserve = s != null && flag(s, PRESERVE_UNKNOWN_FIELDS);
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode value = object.get(name);
      String childPath = path.isEmpty() ? name : path + "." + name;
      if (embedded && isTypeOrObjectMeta(name, value)) {
        continue;
      }
      if (props.containsKey(name)) {
        walk(value, props.get(name), false, childPath, pruned);
      } else if (additional != null && additional.isObject()) {
        walk(value, additional, false, childPath, pruned);
      } else if (additional != null && additional.asBoolean(false) || preserve) {
        continue;
      } else {
        object.remove(name);
        pruned.add(childPath);
      }
    }
  }

  private static boolean isTypeOrObjectMeta(String name, JsonNode value) {
    return switch (name) {
      case "apiVersion", "kind" -> value.isTextual();
      case "metadata" -> value.isObject();
      default -> false;
    };
  }
}

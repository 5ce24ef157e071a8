package io.listwatch.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's strategic merge patch ({@code application/strategic-merge-patch+json}), applied to
 * an object's JSON tree with the kind's {@link PatchSchema}.
 *
 * <h2>Semantics</h2>
 * Objects merge key by key, a {@code null} removes a key. A list whose field has the
 * {@link PatchStrategy#MERGE} strategy merges: objects by the field's merge key (an element
 * that matches a live one is merged into it, others are added), primitives as a set; every
 * other list is replaced whole. Directives:
 * <ul>
 *   <li>{@code "$patch": "replace"} in an object replaces the object by the rest of the patch
 *       object; as an element of a merge list ({@code {"$patch":"replace"}}) it replaces the list
 *       by the patch's other elements.</li>
 *   <li>{@code "$patch": "delete"} in an object removes it; as an element of a merge list with
 *       the merge key ({@code {"name":"a","$patch":"delete"}}) it removes the matching elements.
 *       {@code "$patch": "merge"} is an error in a list, as in kube.</li>
 *   <li>{@code "$retainKeys": [..]} clears the keys of the live object not listed; every key the
 *       patch object sets must be listed.</li>
 *   <li>{@code "$setElementOrder/<field>": [..]} orders the merged list: the listed elements in
 *       that order, the live-only ones interleaved by their live order ({@link ElementOrder}).
 *       Without it the patch's own order is used the same way.</li>
 *   <li>{@code "$deleteFromPrimitiveList/<field>": [..]} removes those values from a merged list
 *       of primitives.</li>
 * </ul>
 *
 * <p>Where kube keeps a value from the patch as it is (a field the live object lacks), this
 * merges it into an empty value instead, so directives inside never reach storage (kube's typed
 * decoding drops them there).
 *
 * <h2>Errors</h2>
 * kube's messages. A bad directive format is 400 BadRequest; lists of lists and keys outside
 * {@code $retainKeys} are 422 (kube's generic "the server rejected our request"); the other
 * failures (an element without its merge key, an unknown {@code $patch}) are answered by kube
 * with a 500 of unknown reason and here with 400 BadRequest and the same message, since the
 * fault is the request's.
 *
 * <p>Stateless and thread-safe; neither input is modified.
 */
public final class StrategicMergePatch {

  static final String DIRECTIVE = "$patch";
  static final String RETAIN_KEYS = "$retainKeys";
  static final String SET_ELEMENT_ORDER = "$setElementOrder/";
  static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

  private final PatchSchema schema;

  private StrategicMergePatch(PatchSchema schema) {
    this.schema = schema;
  }

  /**
   * The result of applying {@code patch} to {@code original}.
   *
   * @param original the live object
   * @param patch the patch document; must be a JSON object
   * @param schema the kind's patch metadata
   * @return a new object, sharing no node with the inputs
   * @throws StatusException 400 or 422 as described above
   */
  public static ObjectNode apply(ObjectNode original, JsonNode patch, PatchSchema schema) {
    if (!(patch instanceof ObjectNode p)) {
      throw StatusException.badRequest("json: cannot unmarshal " + GoValues.jsonKind(patch)
          + " into Go value of type map[string]interface {}");
    }
    return new StrategicMergePatch(schema).mergeMap(original.deepCopy(), p.deepCopy(), "");
  }

  /** Merges {@code patch} (owned, may be consumed) into {@code original} (owned, or null). */
  private ObjectNode mergeMap(ObjectNode original, ObjectNode patch, String path) {
    JsonNode directive = patch.get(DIRECTIVE);
    if (directive != null) {
      if ("replace".equals(directive.asText())) {
        patch.remove(DIRECTIVE);
        return mergeMap(null, patch, path);
      }
      if ("delete".equals(directive.asText())) {
        return JsonNodeFactory.instance.objectNode();
      }
      throw failed("unknown patch type: " + GoValues.format(directive) + " in map: " + GoValues.format(patch));
    }
    ObjectNode result = original != null ? original : JsonNodeFactory.instance.objectNode();
    applyRetainKeys(result, patch);
    applySetElementOrder(result, patch, path);
    for (String key : keys(patch)) {
      JsonNode value = patch.get(key);
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        deleteFromPrimitiveList(result, key.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value);
        continue;
      }
      if (value.isNull()) {
        result.remove(key);
        continue;
      }
      String childPath = path.isEmpty() ? key : path + "." + key;
      PatchMeta meta = schema.at(childPath);
      JsonNode live = result.get(key);
      if (live == null || live.isNull() || kindOf(live) != kindOf(value)) {
        result.set(key, fresh(value, meta, childPath));
      } else if (live.isObject()) {
        result.set(key, meta.replaces() ? fresh(value, PatchMeta.NONE, childPath)
            : mergeMap((ObjectNode) live, (ObjectNode) value, childPath));
      } else if (live.isArray() && meta.merges()) {
        result.set(key, mergeList((ArrayNode) live, (ArrayNode) value, meta, childPath));
      } else {
        result.set(key, value);
      }
    }
    return result;
  }

  /** A patch value for a field the live object lacks: merged into an empty value of its kind. */
  private JsonNode fresh(JsonNode value, PatchMeta meta, String path) {
    if (value instanceof ObjectNode o) {
      return mergeMap(null, o, path);
    }
    if (value instanceof ArrayNode a && meta.merges()) {
      return mergeList(JsonNodeFactory.instance.arrayNode(), a, meta, path);
    }
    return value;
  }

  private static void applyRetainKeys(ObjectNode original, ObjectNode patch) {
    JsonNode retain = patch.remove(RETAIN_KEYS);
    if (retain == null) {
      return;
    }
    if (!retain.isArray()) {
      throw StatusException.badRequest("invalid patch format of retainKeys");
    }
    Set<String> keep = new HashSet<>();
    retain.forEach(k -> keep.add(k.asText()));
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      String k = e.getKey();
      if (e.getValue().isNull() || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) {
        continue;
      }
      if (!keep.contains(k)) {
        throw StatusException.rejected("patch content doesn't match retainKeys list");
      }
    }
    for (String k : keys(original)) {
      if (!keep.contains(k)) {
        original.remove(k);
      }
    }
  }

  /** Merges each list named by a {@code $setElementOrder/<field>} and puts it in that order. */
  private void applySetElementOrder(ObjectNode original, ObjectNode patch, String path) {
    for (String key : keys(patch)) {
      if (!key.startsWith(SET_ELEMENT_ORDER)) {
        continue;
      }
      JsonNode order = patch.remove(key);
      if (!order.isArray()) {
        throw StatusException.badRequest("invalid patch format of setElementOrder list");
      }
      String field = key.substring(SET_ELEMENT_ORDER.length());
      String childPath = path.isEmpty() ? field : path + "." + field;
      PatchMeta meta = schema.at(childPath);
      JsonNode live = original.get(field);
      JsonNode patchList = patch.get(field);
      boolean inLive = live != null && !live.isNull();
      boolean inPatch = patchList != null && !patchList.isNull();
      if ((inLive && !live.isArray()) || (inPatch && !patchList.isArray())) {
        throw StatusException.badRequest("invalid patch format of setElementOrder list");
      }
      if (!inLive && !inPatch) {
        continue;
      }
      String mergeKey = meta.mergeKey();
      if (inPatch) {
        validateOrder((ArrayNode) patchList, (ArrayNode) order, mergeKey);
      }
      ArrayNode liveList = inLive ? (ArrayNode) live : JsonNodeFactory.instance.arrayNode();
      ArrayNode merged;
      if (!inPatch) {
        merged = liveList;
      } else if (meta.merges()) {
        merged = mergeList(liveList, (ArrayNode) patchList, meta, childPath);
      } else {
        merged = (ArrayNode) patchList;
      }
      if (mergeKey.isEmpty() && containsObject(merged)) {
        original.set(field, merged); // nothing to order by: a list of objects without merge key
      } else {
        original.set(field, array(ElementOrder.normalize(elements(merged), elements(order), elements(liveList),
            mergeKey)));
      }
      patch.remove(field);
    }
  }

  /** The patch list's elements (deletions aside) must appear in the order list, in its order. */
  private static void validateOrder(ArrayNode patchList, ArrayNode order, String mergeKey) {
    if (patchList.isEmpty() || order.isEmpty()) {
      return;
    }
    List<JsonNode> items = new ArrayList<>();
    for (JsonNode item : patchList) {
      if (!(item.isObject() && item.has(DIRECTIVE))) {
        items.add(item);
      }
    }
    int i = 0;
    int j = 0;
    while (i < items.size() && j < order.size()) {
      JsonNode a = items.get(i);
      JsonNode b = order.get(j);
      if (!mergeKey.isEmpty()) {
        requireMergeKey(a, mergeKey);
        requireMergeKey(b, mergeKey);
        a = a.get(mergeKey);
        b = b.get(mergeKey);
      }
      if (ElementOrder.sameValue(a, b)) {
        i++;
      }
      j++;
    }
    if (i < items.size()) {
      throw failed("The order in patch list:\n" + GoValues.format(patchList) + "\n doesn't match "
          + "$setElementOrder list:\n" + GoValues.format(order) + "\n");
    }
  }

  private static void deleteFromPrimitiveList(ObjectNode original, String field, JsonNode toDelete) {
    if (!toDelete.isArray()) {
      throw StatusException.badRequest("invalid patch format of primitive list");
    }
    JsonNode live = original.get(field);
    if (!(live instanceof ArrayNode list)) {
      return; // nothing to delete from
    }
    List<JsonNode> kept = new ArrayList<>();
    for (JsonNode v : list) {
      if (ElementOrder.index(elements(toDelete), v, "") < 0) {
        kept.add(v);
      }
    }
    original.set(field, array(kept));
  }

  /** Merges a {@link PatchStrategy#MERGE} list. */
  private ArrayNode mergeList(ArrayNode live, ArrayNode patch, PatchMeta meta, String path) {
    if (live.isEmpty() && patch.isEmpty()) {
      return live;
    }
    JsonKind kind = elementKind(live, patch);
    if (kind != JsonKind.OBJECT) {
      List<JsonNode> merged = new ArrayList<>();
      for (JsonNode v : live) {
        addUnique(merged, v);
      }
      for (JsonNode v : patch) {
        addUnique(merged, v);
      }
      return array(ElementOrder.normalize(merged, elements(patch), elements(live), ""));
    }
    String mergeKey = meta.mergeKey();
    if (mergeKey.isEmpty()) {
      throw failed("cannot merge lists without merge key for " + path);
    }
    List<JsonNode> result = elements(live);
    List<JsonNode> plain = new ArrayList<>();
    boolean replace = false;
    for (JsonNode item : patch) {
      JsonNode directive = item.get(DIRECTIVE);
      if (directive == null) {
        plain.add(item);
        continue;
      }
      switch (directive.asText()) {
        case "delete" -> {
          JsonNode key = requireMergeKey(item, mergeKey).get(mergeKey);
          result.removeIf(e -> e.isObject() && ElementOrder.sameValue(e.get(mergeKey), key));
        }
        case "replace" -> replace = true;
        case "merge" -> throw failed("merging lists cannot yet be specified in the patch");
        default -> throw failed("unknown patch type: " + GoValues.format(directive) + " in map: "
            + GoValues.format(item));
      }
    }
    if (replace) {
      List<JsonNode> replaced = new ArrayList<>();
      for (JsonNode item : plain) {
        replaced.add(mergeMap(null, (ObjectNode) item, path));
      }
      return array(replaced);
    }
    for (JsonNode item : plain) {
      JsonNode key = requireMergeKey(item, mergeKey).get(mergeKey);
      int at = -1;
      for (int i = 0; i < result.size(); i++) {
        if (!(result.get(i) instanceof ObjectNode)) {
          throw failed("value for key " + i + " is not a map.");
        }
        if (ElementOrder.sameValue(result.get(i).get(mergeKey), key)) {
          at = i;
          break;
        }
      }
      if (at >= 0) {
        result.set(at, mergeMap((ObjectNode) result.get(at), (ObjectNode) item, path));
      } else {
        result.add(mergeMap(null, (ObjectNode) item, path));
      }
    }
    for (JsonNode e : result) {
      requireMergeKey(e, mergeKey);
    }
    return array(ElementOrder.normalize(result, plain, elements(live), mergeKey));
  }

  private static JsonNode requireMergeKey(JsonNode item, String mergeKey) {
    if (!item.has(mergeKey)) {
      throw failed("map: " + GoValues.format(item) + " does not contain declared merge key: " + mergeKey);
    }
    return item;
  }

  /** The one kind of every element of both lists; lists of lists are refused. */
  private static JsonKind elementKind(ArrayNode a, ArrayNode b) {
    JsonKind kind = null;
    for (ArrayNode list : List.of(a, b)) {
      for (JsonNode v : list) {
        JsonKind k = kindOf(v);
        if (k == JsonKind.ARRAY) {
          throw StatusException.rejected("lists of lists are not supported");
        }
        if (kind != null && kind != k) {
          throw failed("list element types are not identical: " + GoValues.format(a) + " " + GoValues.format(b));
        }
        kind = k;
      }
    }
    return kind;
  }

  private enum JsonKind { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL }

  private static JsonKind kindOf(JsonNode v) {
    if (v.isObject()) {
      return JsonKind.OBJECT;
    }
    if (v.isArray()) {
      return JsonKind.ARRAY;
    }
    if (v.isTextual()) {
      return JsonKind.STRING;
    }
    if (v.isNumber()) {
      return JsonKind.NUMBER;
    }
    if (v.isBoolean()) {
      return JsonKind.BOOLEAN;
    }
    return JsonKind.NULL;
  }

  private static void addUnique(List<JsonNode> list, JsonNode v) {
    if (ElementOrder.index(list, v, "") < 0) {
      list.add(v);
    }
  }

  private static boolean containsObject(ArrayNode list) {
    for (JsonNode v : list) {
      if (v.isObject()) {
        return true;
      }
    }
    return false;
  }

  private static List<String> keys(ObjectNode o) {
    List<String> keys = new ArrayList<>();
    o.properties().forEach(e -> keys.add(e.getKey()));
    return keys;
  }

  private static List<JsonNode> elements(JsonNode list) {
    List<JsonNode> out = new ArrayList<>(list.size());
    list.forEach(out::add);
    return out;
  }

  private static ArrayNode array(List<JsonNode> items) {
    ArrayNode a = JsonNodeFactory.instance.arrayNode(items.size());
    a.addAll(items);
    return a;
  }

  /** A patch kube cannot apply for a reason it reports without an HTTP code of its own. */
  private static StatusException failed(String message) {
    return StatusException.badRequest(message);
  }
}

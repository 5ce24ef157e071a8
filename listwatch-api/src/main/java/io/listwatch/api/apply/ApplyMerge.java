package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.patch.ListType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tree operations of server-side apply, on Jackson trees, read with an {@link ApplySchema}:
 * merging an applied configuration into a live object, removing fields nobody owns any more,
 * and comparing two objects.
 *
 * <h2>Merge</h2>
 * The applied value wins at every leaf; objects merge field by field (an atomic map is
 * replaced); atomic lists are replaced; sets are the union; list-maps merge item by item by
 * key. The order of a set or list-map is kube's: the two lists are walked side by side, live
 * items the applier does not name keep their place, and the items it names (new or shared)
 * come in its order, a new item just before the shared item that follows it.
 *
 * <p>Stateless and thread-safe; never mutates its arguments.
 */
public final class ApplyMerge {

  private ApplyMerge() {
  }

  /** {@code applied} merged into {@code live} (either may be null for none). */
  public static JsonNode merge(JsonNode live, JsonNode applied, ApplySchema schema) {
    if (applied == null) {
      return live == null ? null : live.deepCopy();
    }
    if (live == null || live.isNull() || applied.isNull() || live.getNodeType() != applied.getNodeType()) {
      return applied.deepCopy();
    }
    if (applied.isObject()) {
      if (schema.atomicMap()) {
        return applied.deepCopy();
      }
      ObjectNode out = ((ObjectNode) live).deepCopy();
      for (Iterator<Map.Entry<String, JsonNode>> it = applied.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        out.set(e.getKey(), merge(live.get(e.getKey()), e.getValue(), schema.field(e.getKey())));
      }
      return out;
    }
    if (applied.isArray()) {
      return switch (schema.listType()) {
        case ATOMIC -> applied.deepCopy();
        case SET, MAP -> mergeItems((ArrayNode) live, (ArrayNode) applied, schema);
      };
    }
    return applied.deepCopy();
  }

  private static ArrayNode mergeItems(ArrayNode live, ArrayNode applied, ApplySchema schema) {
    List<PathElement> lhs = new ArrayList<>();
    Map<PathElement, JsonNode> lhsItems = new LinkedHashMap<>();
    for (int i = 0; i < live.size(); i++) {
      PathElement pe = FieldSet.itemElement(schema, live.get(i), i);
      lhs.add(pe);
      lhsItems.putIfAbsent(pe, live.get(i));
    }
    List<PathElement> rhs = new ArrayList<>();
    Map<PathElement, JsonNode> rhsItems = new LinkedHashMap<>();
    for (int i = 0; i < applied.size(); i++) {
      PathElement pe = FieldSet.itemElement(schema, applied.get(i), i);
      rhs.add(pe);
      rhsItems.putIfAbsent(pe, applied.get(i));
    }
    // the items both name, in the applier's order: each is placed where the applier has it
    java.util.ArrayDeque<PathElement> shared = new java.util.ArrayDeque<>();
    rhs.stream().filter(lhsItems::containsKey).forEach(shared::add);
    java.util.Set<PathElement> merged = new java.util.HashSet<>();
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    int l = 0;
    int r = 0;
    while (l < lhs.size() || r < rhs.size()) {
      if (l < lhs.size() && r < rhs.size()) {
        PathElement pe = lhs.get(l);
        if (pe.equals(rhs.get(r))) {
          out.add(merge(lhsItems.get(pe), rhsItems.get(pe), schema.items()));
          merged.add(pe);
          l++;
          r++;
          shared.poll();
          continue;
        }
        if (rhsItems.containsKey(pe) && !shared.isEmpty() && !shared.peek().equals(pe)) {
          l++; // a shared item the applier places later
          continue;
        }
      }
      if (l < lhs.size()) {
        PathElement pe = lhs.get(l);
        if (!rhsItems.containsKey(pe)) {
          out.add(live.get(l).deepCopy());
          l++;
          continue;
        } else if (merged.contains(pe)) {
          l++;
          continue;
        }
      }
      if (r < rhs.size()) {
        PathElement pe = rhs.get(r);
        out.add(merge(lhsItems.get(pe), rhsItems.get(pe), schema.items()));
        merged.add(pe);
        r++;
        if (pe.equals(shared.peek())) {
          shared.poll();
        }
      }
    }
    return out;
  }

  /**
   * {@code object} without the nodes at {@code remove}, except those at or above a path of
   * {@code keep} (a node someone still owns, or that holds something someone owns, stays).
   */
  public static JsonNode prune(JsonNode object, FieldSet remove, FieldSet keep, ApplySchema schema) {
    JsonNode out = object.deepCopy();
    List<FieldPath> gone = new ArrayList<>();
    // shallowest first; what lies beneath a removed node goes with it
    for (FieldPath p : remove) {
      if (keep.hasPrefix(p) || gone.stream().anyMatch(p::startsWith)) {
        continue;
      }
      if (removeAt(out, p, schema)) {
        gone.add(p);
      }
    }
    return out;
  }

  /** Removes the node at {@code path}; false when there is none, or it is a list-map item's key. */
  private static boolean removeAt(JsonNode root, FieldPath path, ApplySchema schema) {
    JsonNode node = root;
    ApplySchema s = schema;
    List<PathElement> el = path.elements();
    List<String> itemKeys = List.of();
    for (int i = 0; i < el.size(); i++) {
      PathElement e = el.get(i);
      boolean last = i == el.size() - 1;
      if (e.kind() == PathElement.Kind.FIELD) {
        if (!node.isObject() || !node.has(e.fieldName())) {
          return false;
        }
        if (last) {
          if (itemKeys.contains(e.fieldName())) {
            return false;
          }
          ((ObjectNode) node).remove(e.fieldName());
          return true;
        }
        itemKeys = List.of();
        node = node.get(e.fieldName());
        s = s.field(e.fieldName());
      } else {
        if (!node.isArray()) {
          return false;
        }
        int found = -1;
        for (int j = 0; j < node.size() && found < 0; j++) {
          if (s.listType() != ListType.ATOMIC && FieldSet.itemElement(s, node.get(j), j).equals(e)) {
            found = j;
          }
        }
        if (found < 0) {
          return false;
        }
        if (last) {
          ((ArrayNode) node).remove(found);
          return true;
        }
        itemKeys = s.listType() == ListType.MAP ? s.listMapKeys() : List.of();
        node = node.get(found);
        s = s.items();
      }
    }
    return false;
  }

  /**
   * What changed from {@code before} to {@code after}, as kube's comparison reports it: a
   * field or item present only after is added together with every node beneath it, nested
   * objects and lists included (and likewise removed), and a leaf whose value differs is
   * modified. (So {@code kubectl create} records {@code f:ports: {".": {}, ...}}.)
   *
   * @param added the fields set in {@code after} that {@code before} lacked
   * @param removed the fields {@code before} set that {@code after} lacks
   * @param modified the leaves both set, with different values
   */
  public record Comparison(FieldSet added, FieldSet removed, FieldSet modified) {
    /** Added or modified: what a writer changed. */
    public FieldSet changed() {
      return added.union(modified);
    }
  }

  /** Compares two objects (root objects; a missing object is an empty one). */
  public static Comparison compare(JsonNode before, JsonNode after, ApplySchema schema) {
    List<FieldPath> added = new ArrayList<>();
    List<FieldPath> removed = new ArrayList<>();
    List<FieldPath> modified = new ArrayList<>();
    JsonNode b = before == null ? JsonNodeFactory.instance.objectNode() : before;
    JsonNode a = after == null ? JsonNodeFactory.instance.objectNode() : after;
    compare(b, a, schema, FieldPath.ROOT, added, removed, modified);
    return new Comparison(FieldSet.of(added), FieldSet.of(removed), FieldSet.of(modified));
  }

  private static void compare(JsonNode b, JsonNode a, ApplySchema s, FieldPath at,
      List<FieldPath> added, List<FieldPath> removed, List<FieldPath> modified) {
    // null on one side is an empty object or list (kube's zero value of a nil map or slice)
    if (b.isNull() && a.isContainerNode()) {
      b = a.isObject() ? JsonNodeFactory.instance.objectNode() : JsonNodeFactory.instance.arrayNode();
    } else if (a.isNull() && b.isContainerNode()) {
      a = b.isObject() ? JsonNodeFactory.instance.objectNode() : JsonNodeFactory.instance.arrayNode();
    }
    JsonNode before = b;
    JsonNode after = a;
    if (b.isObject() && a.isObject() && !s.atomicMap()) {
      after.fields().forEachRemaining(e -> {
        JsonNode old = before.get(e.getKey());
        if (old == null) {
          everyNode(e.getValue(), s.field(e.getKey()), at.child(PathElement.field(e.getKey())), added);
        } else if (!old.equals(e.getValue())) { // equal nodes have no difference beneath: not walked
          compare(old, e.getValue(), s.field(e.getKey()), at.child(PathElement.field(e.getKey())), added, removed,
              modified);
        }
      });
      before.fields().forEachRemaining(e -> {
        if (!after.has(e.getKey())) {
          FieldPath child = at.child(PathElement.field(e.getKey()));
          everyNode(e.getValue(), s.field(e.getKey()), child, removed);
        }
      });
    } else if (b.isArray() && a.isArray() && s.listType() != ListType.ATOMIC) {
      Map<PathElement, JsonNode> bi = items(b, s);
      Map<PathElement, JsonNode> ai = items(a, s);
      ai.forEach((pe, v) -> {
        FieldPath child = at.child(pe);
        if (!bi.containsKey(pe)) {
          everyNode(v, s.items(), child, added);
        } else {
          compare(bi.get(pe), v, s.items(), child, added, removed, modified);
        }
      });
      bi.forEach((pe, v) -> {
        if (!ai.containsKey(pe)) {
          FieldPath child = at.child(pe);
          everyNode(v, s.items(), child, removed);
        }
      });
    } else if (!b.equals(a) && at.size() > 0) {
      modified.add(at);
    }
  }

  /**
   * {@code at} and every node beneath it, down to atomic values: what kube's comparison
   * reports for a node present on one side only (each nested object and list a member too).
   */
  private static void everyNode(JsonNode node, ApplySchema s, FieldPath at, List<FieldPath> out) {
    out.add(at);
    if (node.isObject() && !s.atomicMap()) {
      node.fields().forEachRemaining(e -> everyNode(e.getValue(), s.field(e.getKey()),
          at.child(PathElement.field(e.getKey())), out));
    } else if (node.isArray() && s.listType() != ListType.ATOMIC) {
      items(node, s).forEach((pe, v) -> everyNode(v, s.items(), at.child(pe), out));
    }
  }

  private static Map<PathElement, JsonNode> items(JsonNode list, ApplySchema s) {
    Map<PathElement, JsonNode> m = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      m.putIfAbsent(FieldSet.itemElement(s, list.get(i), i), list.get(i));
    }
    return m;
  }
}

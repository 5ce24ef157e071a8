package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.patch.ListType;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * A set of {@link FieldPath}s: the fields a manager owns, or the fields an object sets
 * (structured-merge-diff's {@code fieldpath.Set}). Its wire form is {@link FieldsV1}.
 *
 * <h2>What an object sets</h2>
 * {@link #of} walks an object as kube does: every scalar (and null) is a member; an atomic
 * list or atomic map is one member and is not walked into; every item of a set or list-map
 * is a member (its path names it by value or by key) and its fields are walked; an object
 * field whose value is an empty object is a member; a key of a free map is a member.
 * Non-empty struct fields are not members themselves, only what lies beneath them.
 *
 * <p>Immutable and thread-safe.
 */
public final class FieldSet implements Iterable<FieldPath> {

  /** The set with no paths. */
  public static final FieldSet EMPTY = new FieldSet(new TreeSet<>());

  private final NavigableSet<FieldPath> paths;

  private FieldSet(NavigableSet<FieldPath> paths) {
    this.paths = Collections.unmodifiableNavigableSet(paths);
  }

  /** A set of the given paths. */
  public static FieldSet of(Iterable<FieldPath> paths) {
    TreeSet<FieldPath> s = new TreeSet<>();
    paths.forEach(s::add);
    return new FieldSet(s);
  }

  /** A set of the given paths. */
  public static FieldSet of(FieldPath... paths) {
    return of(java.util.Arrays.asList(paths));
  }

  /**
   * The fields {@code object} sets, read with {@code schema}.
   *
   * @throws IllegalArgumentException when an item of a list-map lacks a key field that has no
   *     default, or a list-map or set holds an item twice (kube rejects both)
   */
  public static FieldSet of(JsonNode object, ApplySchema schema) {
    TreeSet<FieldPath> out = new TreeSet<>();
    walk(object, schema, FieldPath.ROOT, out);
    return new FieldSet(out);
  }

  private static void walk(JsonNode node, ApplySchema schema, FieldPath at, TreeSet<FieldPath> out) {
    if (node.isObject()) {
      if (schema.atomicMap()) {
        out.add(at);
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        FieldPath child = at.child(PathElement.field(e.getKey()));
        JsonNode v = e.getValue();
        walk(v, schema.field(e.getKey()), child, out);
        if (v.isObject() && (v.isEmpty() || !schema.declaresField(e.getKey()))) {
          out.add(child);
        }
      }
    } else if (node.isArray()) {
      if (schema.listType() == ListType.ATOMIC) {
        out.add(at);
        return;
      }
      TreeSet<PathElement> seen = new TreeSet<>();
      for (int i = 0; i < node.size(); i++) {
        JsonNode item = node.get(i);
        PathElement pe;
        try {
          pe = itemElement(schema, item, i);
        } catch (IllegalArgumentException e) {
          // structured-merge-diff's form: the list's path, the element's index, what is wrong
          throw new IllegalArgumentException(at + ": element " + i + ": " + e.getMessage(), e);
        }
        if (!seen.add(pe)) {
          throw new IllegalArgumentException(at + ": duplicate entries for key " + pe);
        }
        FieldPath child = at.child(pe);
        walk(item, schema.items(), child, out);
        out.add(child);
      }
    } else {
      out.add(at);
    }
  }

  /** The path element naming {@code item} (at {@code index}) of a list with {@code schema}. */
  static PathElement itemElement(ApplySchema schema, JsonNode item, int index) {
    ListType type = schema.listType();
    if (type == ListType.SET) {
      if (item.isContainerNode()) {
        throw new IllegalArgumentException("a set holds primitives, not " + item.getNodeType());
      }
      return PathElement.value(item);
    }
    if (type != ListType.MAP) {
      return PathElement.index(index);
    }
    if (!item.isObject()) {
      throw new IllegalArgumentException("a list-map holds objects, not " + item.getNodeType());
    }
    Map<String, JsonNode> key = new LinkedHashMap<>();
    for (String name : schema.listMapKeys()) {
      JsonNode v = item.get(name);
      if (v == null || v.isNull()) {
        v = schema.keyDefault(name).orElseThrow(() -> new IllegalArgumentException(
            "associative list with keys has an element that omits key field \"" + name
                + "\" (and doesn't have default value)"));
      }
      key.put(name, v);
    }
    return PathElement.key(key);
  }

  /** Whether the set has no paths. */
  public boolean isEmpty() {
    return paths.isEmpty();
  }

  /** The number of paths. */
  public int size() {
    return paths.size();
  }

  /** Whether {@code path} is a member. */
  public boolean contains(FieldPath path) {
    return paths.contains(path);
  }

  /** Whether a member is {@code path} or lies beneath it. */
  public boolean hasPrefix(FieldPath path) {
    FieldPath next = paths.ceiling(path);
    return next != null && next.startsWith(path);
  }

  /** The members in kube's order. */
  @Override
  public Iterator<FieldPath> iterator() {
    return paths.iterator();
  }

  /** The members of either set. */
  public FieldSet union(FieldSet other) {
    TreeSet<FieldPath> s = new TreeSet<>(paths);
    s.addAll(other.paths);
    return new FieldSet(s);
  }

  /** The members of this set not in {@code other}. */
  public FieldSet difference(FieldSet other) {
    TreeSet<FieldPath> s = new TreeSet<>(paths);
    s.removeAll(other.paths);
    return new FieldSet(s);
  }

  /** The members of both sets. */
  public FieldSet intersection(FieldSet other) {
    TreeSet<FieldPath> s = new TreeSet<>(paths);
    s.retainAll(other.paths);
    return new FieldSet(s);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSet f && paths.equals(f.paths);
  }

  @Override
  public int hashCode() {
    return paths.hashCode();
  }

  /** The members, one per line as kube prints paths. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    paths.forEach(p -> sb.append(p).append('\n'));
    return sb.toString();
  }
}

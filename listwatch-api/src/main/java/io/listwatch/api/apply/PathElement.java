package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a {@link FieldPath}, as structured-merge-diff names it: a field of an object
 * ({@code f:name}), the item of a list-map with the given key fields ({@code k:{"name":"c"}}),
 * the item of a set with the given value ({@code v:"x"}), or the item at a list index
 * ({@code i:0}).
 *
 * <p>Elements are totally ordered as kube orders them: fields (by name) before keys before
 * values before indexes; keys compare field by field (name, then value), values by
 * {@link #compareValues}.
 *
 * <p>Immutable; {@link #key()} and {@link #value()} are copies the caller must not mutate.
 */
public final class PathElement implements Comparable<PathElement> {

  /** The four kinds of element, in kube's order. */
  public enum Kind { FIELD, KEY, VALUE, INDEX }

  private final Kind kind;
  private final String field;
  private final ObjectNode key;
  private final JsonNode value;
  private final int index;

  private PathElement(Kind kind, String field, ObjectNode key, JsonNode value, int index) {
    this.kind = kind;
    this.field = field;
    this.key = key;
    this.value = value;
    this.index = index;
  }

  /** The object field {@code name}. */
  public static PathElement field(String name) {
    return new PathElement(Kind.FIELD, Objects.requireNonNull(name, "name"), null, null, -1);
  }

  /** The list-map item with these key fields (sorted by name here, as kube sorts them). */
  public static PathElement key(Map<String, JsonNode> fields) {
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("a list-map key needs at least one field");
    }
    ObjectNode sorted = JsonNodeFactory.instance.objectNode();
    fields.keySet().stream().sorted().forEach(n -> sorted.set(n, fields.get(n).deepCopy()));
    return new PathElement(Kind.KEY, null, sorted, null, -1);
  }

  /** The set item with this (primitive) value. */
  public static PathElement value(JsonNode value) {
    return new PathElement(Kind.VALUE, null, null, value.deepCopy(), -1);
  }

  /** The list item at {@code index}. */
  public static PathElement index(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("negative list index " + index);
    }
    return new PathElement(Kind.INDEX, null, null, null, index);
  }

  public Kind kind() {
    return kind;
  }

  /** The field name of a {@link Kind#FIELD} element, else null. */
  public String fieldName() {
    return field;
  }

  /** The key fields of a {@link Kind#KEY} element (sorted by name), else null. */
  public ObjectNode key() {
    return key;
  }

  /** The value of a {@link Kind#VALUE} element, else null. */
  public JsonNode value() {
    return value;
  }

  /** The index of an {@link Kind#INDEX} element, else -1. */
  public int index() {
    return index;
  }

  @Override
  public int compareTo(PathElement o) {
    if (kind != o.kind) {
      return kind.compareTo(o.kind);
    }
    return switch (kind) {
      case FIELD -> field.compareTo(o.field);
      case KEY -> compareKeys(key, o.key);
      case VALUE -> compareValues(value, o.value);
      case INDEX -> Integer.compare(index, o.index);
    };
  }

  private static int compareKeys(ObjectNode a, ObjectNode b) {
    Iterator<Map.Entry<String, JsonNode>> ia = a.fields();
    Iterator<Map.Entry<String, JsonNode>> ib = b.fields();
    while (ia.hasNext() && ib.hasNext()) {
      Map.Entry<String, JsonNode> ea = ia.next();
      Map.Entry<String, JsonNode> eb = ib.next();
      int c = ea.getKey().compareTo(eb.getKey());
      if (c == 0) {
        c = compareValues(ea.getValue(), eb.getValue());
      }
      if (c != 0) {
        return c;
      }
    }
    return Boolean.compare(ia.hasNext(), ib.hasNext());
  }

  /**
   * kube's total order of values: numbers (compared numerically), then strings, booleans
   * (false first), lists, maps, null.
   */
  static int compareValues(JsonNode a, JsonNode b) {
    int ra = rank(a);
    int rb = rank(b);
    if (ra != rb) {
      return Integer.compare(ra, rb);
    }
    switch (ra) {
      case 0:
        if (a.isIntegralNumber() && b.isIntegralNumber() && a.canConvertToLong() && b.canConvertToLong()) {
          return Long.compare(a.longValue(), b.longValue());
        }
        return Double.compare(a.doubleValue(), b.doubleValue());
      case 1:
        return a.textValue().compareTo(b.textValue());
      case 2:
        return Boolean.compare(a.booleanValue(), b.booleanValue());
      case 3:
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
          int c = compareValues(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.size(), b.size());
      case 4: {
        List<String> na = new ArrayList<>();
        a.fieldNames().forEachRemaining(na::add);
        List<String> nb = new ArrayList<>();
        b.fieldNames().forEachRemaining(nb::add);
        na.sort(null);
        nb.sort(null);
        for (int i = 0; i < Math.min(na.size(), nb.size()); i++) {
          int c = na.get(i).compareTo(nb.get(i));
          if (c == 0) {
            c = compareValues(a.get(na.get(i)), b.get(nb.get(i)));
          }
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(na.size(), nb.size());
      }
      default:
        return 0;
    }
  }

  private static int rank(JsonNode n) {
    if (n.isNumber()) {
      return 0;
    } else if (n.isTextual()) {
      return 1;
    } else if (n.isBoolean()) {
      return 2;
    } else if (n.isArray()) {
      return 3;
    } else if (n.isObject()) {
      return 4;
    }
    return 5;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathElement p && compareTo(p) == 0;
  }

  @Override
  public int hashCode() {
    return switch (kind) {
      case FIELD -> field.hashCode();
      case KEY -> {
        int h = 0;
        for (var it = key.fieldNames(); it.hasNext(); ) {
          h = 31 * h + it.next().hashCode();
        }
        yield h;
      }
      case VALUE -> value.isNumber() ? Double.hashCode(value.doubleValue()) : value.toString().hashCode();
      case INDEX -> index;
    };
  }

  /**
   * The element as kube prints it in paths and conflict messages: {@code .name},
   * {@code [name="c"]} (key fields joined by commas), {@code [="x"]}, {@code [0]}.
   */
  @Override
  public String toString() {
    return switch (kind) {
      case FIELD -> "." + field;
      case KEY -> {
        StringBuilder sb = new StringBuilder("[");
        key.fields().forEachRemaining(e -> sb.append(sb.length() > 1 ? "," : "")
            .append(e.getKey()).append('=').append(e.getValue().toString()));
        yield sb.append(']').toString();
      }
      case VALUE -> "[=" + value + "]";
      case INDEX -> "[" + index + "]";
    };
  }
}

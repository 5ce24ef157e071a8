package io.listwatch.api.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The {@code FieldsV1} form of a {@link FieldSet}, as kube writes it in
 * {@code metadata.managedFields[].fieldsV1}: a JSON object whose keys are path elements,
 * {@code f:<field>}, {@code k:<key fields as a JSON object, sorted by name>},
 * {@code v:<value as JSON>} and {@code i:<index>}, and whose values are the objects of what
 * lies beneath. A member with nothing beneath it is {@code {}}; a member with something
 * beneath it carries {@code ".": {}} first. Keys appear in kube's order of path elements.
 *
 * <p>Stateless and thread-safe.
 */
public final class FieldsV1 {

  private static final ObjectMapper JSON = new ObjectMapper();

  private FieldsV1() {
  }

  /** {@code set} in FieldsV1 form. */
  public static ObjectNode toJson(FieldSet set) {
    // the set iterates in path order, so each node's children arrive in order, after the
    // prefix they share with the path before: the tree is built in one pass, without lookups
    Node root = new Node();
    List<Node> open = new ArrayList<>(); // the nodes of the previous path, by depth
    List<PathElement> previous = List.of();
    for (FieldPath p : set) {
      List<PathElement> elements = p.elements();
      int common = 0;
      while (common < elements.size() && common < previous.size()
          && (elements.get(common) == previous.get(common) || elements.get(common).compareTo(previous.get(common)) == 0)) {
        common++;
      }
      open.subList(common, open.size()).clear();
      Node n = common == 0 ? root : open.get(common - 1);
      for (int i = common; i < elements.size(); i++) {
        Node child = new Node();
        n.elements.add(elements.get(i));
        n.children.add(child);
        open.add(child);
        n = child;
      }
      n.member = true;
      previous = elements;
    }
    return root.emit();
  }

  /**
   * Parses a FieldsV1 object.
   *
   * @throws IllegalArgumentException on a key that is no path element, or a value that is no
   *     object
   */
  public static FieldSet parse(JsonNode fieldsV1) {
    if (!fieldsV1.isObject()) {
      throw new IllegalArgumentException("FieldsV1 must be a JSON object, not " + fieldsV1.getNodeType());
    }
    TreeSet<FieldPath> out = new TreeSet<>();
    parseInto(fieldsV1, new ArrayList<>(), out);
    return FieldSet.of(out);
  }

  private static void parseInto(JsonNode obj, List<PathElement> at, TreeSet<FieldPath> out) {
    for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isObject()) {
        throw new IllegalArgumentException("FieldsV1: the value of " + e.getKey() + " must be an object");
      }
      if (e.getKey().equals(".")) {
        if (!at.isEmpty()) {
          out.add(new FieldPath(at));
        }
        continue;
      }
      at.add(parseElement(e.getKey()));
      if (e.getValue().isEmpty()) {
        out.add(new FieldPath(at));
      } else {
        parseInto(e.getValue(), at, out);
      }
      at.remove(at.size() - 1);
    }
  }

  /** Parses one key: {@code f:name}, {@code k:{...}}, {@code v:json} or {@code i:n}. */
  public static PathElement parseElement(String s) {
    if (s.length() < 2 || s.charAt(1) != ':') {
      throw new IllegalArgumentException("FieldsV1: unknown path element " + s);
    }
    String rest = s.substring(2);
    try {
      switch (s.charAt(0)) {
        case 'f':
          return PathElement.field(rest);
        case 'k': {
          JsonNode key = JSON.readTree(rest);
          if (key == null || !key.isObject()) {
            throw new IllegalArgumentException("FieldsV1: a key must be a JSON object: " + s);
          }
          Map<String, JsonNode> fields = new LinkedHashMap<>();
          key.fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue()));
          return PathElement.key(fields);
        }
        case 'v': {
          JsonNode v = JSON.readTree(rest);
          if (v == null || v.isMissingNode()) {
            throw new IllegalArgumentException("FieldsV1: a value must be JSON: " + s);
          }
          return PathElement.value(v);
        }
        case 'i':
          return PathElement.index(Integer.parseInt(rest));
        default:
          throw new IllegalArgumentException("FieldsV1: unknown path element " + s);
      }
    } catch (JsonProcessingException | NumberFormatException ex) {
      throw new IllegalArgumentException("FieldsV1: malformed path element " + s, ex);
    }
  }

  /** The FieldsV1 key of {@code e}. */
  public static String keyOf(PathElement e) {
    return switch (e.kind()) {
      case FIELD -> "f:" + e.fieldName();
      case KEY -> "k:" + keyJson(e.key());
      case VALUE -> "v:" + e.value();
      case INDEX -> "i:" + e.index();
    };
  }

  /**
   * A list item's key as compact JSON, as Jackson writes it: written here for the usual flat key
   * of strings, whole numbers and booleans (Jackson's writer costs more than the key); others by
   * Jackson.
   */
  private static String keyJson(ObjectNode key) {
    StringBuilder b = new StringBuilder(48).append('{');
    for (Iterator<Map.Entry<String, JsonNode>> it = key.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      quoted(b, f.getKey()).append(':');
      if (v.isTextual()) {
        quoted(b, v.textValue());
      } else if (v.isIntegralNumber() && v.canConvertToLong() || v.isBoolean()) {
        b.append(v.asText());
      } else {
        return key.toString();
      }
      if (it.hasNext()) {
        b.append(',');
      }
    }
    return b.append('}').toString();
  }

  private static StringBuilder quoted(StringBuilder b, String s) {
    b.append('"');
    com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(s, b);
    return b.append('"');
  }

  /** A node of the tree being written: its children in path order. Confined to one call. */
  private static final class Node {
    boolean member;
    final List<PathElement> elements = new ArrayList<>(2);
    final List<Node> children = new ArrayList<>(2);

    ObjectNode emit() {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      if (member && !children.isEmpty()) {
        o.set(".", JsonNodeFactory.instance.objectNode());
      }
      for (int i = 0; i < children.size(); i++) {
        o.set(keyOf(elements.get(i)), children.get(i).emit());
      }
      return o;
    }
  }
}

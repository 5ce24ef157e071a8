package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Map;

/** Small helpers over Jackson trees shared by the package's views. Stateless, thread-safe. */
final class Trees {

  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Trees() {}

  /** The object at {@code field}, created (replacing a non-object) when absent. */
  static ObjectNode object(ObjectNode parent, String field) {
    JsonNode n = parent.get(field);
    if (n instanceof ObjectNode o) {
      return o;
    }
    return parent.putObject(field);
  }

  static TextNode text(String s) {
    return TextNode.valueOf(s);
  }

  /** kube's metav1.Time form: RFC 3339 in UTC, whole seconds. */
  static String time(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  static Instant parseTime(String s) {
    return s == null || s.isEmpty() ? Instant.EPOCH : Instant.parse(s);
  }

  /**
   * A copy of {@code node} without null values, Go's zero values ({@code false}, {@code 0},
   * {@code ""}), empty objects and empty arrays (null when nothing is left). kube compares
   * decoded Go structures, where a field absent from the JSON and one sent with its zero value
   * decode alike and a nil and an empty map or slice are semantically equal; clients that send
   * Go structures back (kubectl's rollout undo copies a ReplicaSet's template so) write out
   * every zero value. The cost: a pointer field set to its zero value compares equal to an
   * absent one.
   */
  static JsonNode normalized(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isObject()) {
      ObjectNode out = NODES.objectNode();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        JsonNode v = normalized(e.getValue());
        if (v != null) {
          out.set(e.getKey(), v);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (node.isArray()) {
      var out = NODES.arrayNode();
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        JsonNode v = normalized(it.next());
        out.add(v == null ? NODES.objectNode() : v);
      }
      return out.isEmpty() ? null : out;
    }
    if (node.isNull() || (node.isBoolean() && !node.booleanValue())
        || (node.isNumber() && node.doubleValue() == 0) || (node.isTextual() && node.textValue().isEmpty())) {
      return null;
    }
    return node;
  }
}

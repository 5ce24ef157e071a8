package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Small accessors on pod JSON trees, creating the objects they return when missing. Stateless. */
final class PodTrees {

  private PodTrees() {
  }

  static ObjectNode metadata(ObjectNode pod) {
    return object(pod, "metadata");
  }

  static ObjectNode annotations(ObjectNode pod) {
    return object(metadata(pod), "annotations");
  }

  static ObjectNode labels(ObjectNode pod) {
    return object(metadata(pod), "labels");
  }

  static ObjectNode spec(ObjectNode pod) {
    return object(pod, "spec");
  }

  static ObjectNode status(ObjectNode pod) {
    return object(pod, "status");
  }

  /** {@code node.field} as an object, replacing a missing or non-object value with {@code {}}. */
  static ObjectNode object(ObjectNode node, String field) {
    JsonNode child = node.get(field);
    if (child instanceof ObjectNode o) {
      return o;
    }
    return node.putObject(field);
  }

  /** The text at {@code path} or "" when absent. */
  static String text(JsonNode node, String... path) {
    JsonNode n = node;
    for (String p : path) {
      n = n == null ? null : n.get(p);
    }
    return n == null || n.isNull() ? "" : n.asText();
  }
}

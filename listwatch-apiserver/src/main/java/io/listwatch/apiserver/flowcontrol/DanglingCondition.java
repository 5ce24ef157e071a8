package io.listwatch.apiserver.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's {@code Dangling} condition of a FlowSchema's status, which the API Priority and Fairness
 * configuration controller keeps: {@code True} (reason {@code NotFound}) while the
 * PriorityLevelConfiguration the schema names does not exist, so the schema matches nothing,
 * {@code False} (reason {@code Found}) while it exists; with kube's messages. Its
 * {@code lastTransitionTime} moves only when its status does.
 *
 * <p>Stateless.
 */
final class DanglingCondition {

  static final String TYPE = "Dangling";

  private DanglingCondition() {
  }

  /** Whether {@code schema}'s status already says {@code dangling} with kube's reason and message. */
  static boolean carries(JsonNode schema, boolean dangling) {
    for (JsonNode c : schema.path("status").path("conditions")) {
      if (c.path("type").asText().equals(TYPE)) {
        return c.path("status").asText().equals(status(dangling))
            && c.path("message").asText().equals(message(level(schema), dangling));
      }
    }
    return false;
  }

  /** Sets the condition in {@code schema}'s status, {@code now} the time of a change of its status. */
  static void set(ObjectNode schema, boolean dangling, String now) {
    ObjectNode status = schema.get("status") instanceof ObjectNode s ? s : schema.putObject("status");
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
    ObjectNode condition = null;
    for (JsonNode c : conditions) {
      if (c.path("type").asText().equals(TYPE) && c instanceof ObjectNode o) {
        condition = o;
      }
    }
    if (condition == null) {
      condition = conditions.addObject().put("type", TYPE);
    }
    if (!condition.path("status").asText().equals(status(dangling))) {
      condition.put("lastTransitionTime", now);
    }
    condition.put("status", status(dangling)).put("reason", dangling ? "NotFound" : "Found")
        .put("message", message(level(schema), dangling));
  }

  private static String level(JsonNode schema) {
    return schema.path("spec").path("priorityLevelConfiguration").path("name").asText();
  }

  private static String status(boolean dangling) {
    return dangling ? "True" : "False";
  }

  private static String message(String level, boolean dangling) {
    return dangling
        ? "This FlowSchema references the PriorityLevelConfiguration object named \"" + level
            + "\" but there is no such object"
        : "This FlowSchema references the PriorityLevelConfiguration object named \"" + level + "\" and it exists";
  }
}

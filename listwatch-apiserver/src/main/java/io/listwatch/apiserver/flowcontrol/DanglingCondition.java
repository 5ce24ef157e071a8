package io.listwatch.apiserver.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.meta.Conditions;
import java.time.Instant;

/**
 * kube's {@code Dangling} condition of a FlowSchema's status, which the API Priority and Fairness
 * configuration controller keeps: {@code True} (reason {@code NotFound}) while the
 * PriorityLevelConfiguration the schema names does not exist, so the schema matches nothing,
 * {@code False} (reason {@code Found}) while it exists; with kube's messages, set as
 * {@link Conditions} sets any condition.
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
  static void set(ObjectNode schema, boolean dangling, Instant now) {
    Conditions.set(schema, TYPE, status(dangling), dangling ? "NotFound" : "Found", message(level(schema), dangling), now);
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

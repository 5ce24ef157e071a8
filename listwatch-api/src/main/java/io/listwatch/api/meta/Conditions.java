package io.listwatch.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * The {@code status.conditions} list of an object, kept as kube's controllers keep it
 * ({@code meta.SetStatusCondition}, apiextensions' {@code SetCRDCondition}): one condition per
 * {@code type}; setting one updates its status, reason and message in place, or adds it at the
 * end; its {@code lastTransitionTime} moves only when its status changes.
 *
 * <p>Stateless; the object given is mutated by the calling thread, which must own it.
 */
public final class Conditions {

  private Conditions() {
  }

  /**
   * Sets condition {@code type} of {@code object}'s status (made when missing) to
   * {@code status}, {@code reason} and {@code message}; {@code now} becomes its
   * {@code lastTransitionTime} (in {@link KubeTime#time}'s form) when it is new or its status
   * changes.
   */
  public static void set(ObjectNode object, String type, String status, String reason, String message, Instant now) {
    ObjectNode s = object.get("status") instanceof ObjectNode o ? o : object.putObject("status");
    ArrayNode conditions = s.get("conditions") instanceof ArrayNode a ? a : s.putArray("conditions");
    ObjectNode condition = null;
    for (JsonNode c : conditions) {
      if (c instanceof ObjectNode o && c.path("type").asText().equals(type)) {
        condition = o;
      }
    }
    if (condition == null) {
      condition = conditions.addObject().put("type", type);
    }
    if (!condition.path("status").asText().equals(status)) {
      condition.put("lastTransitionTime", KubeTime.time(now));
    }
    condition.put("status", status).put("reason", reason).put("message", message);
  }
}

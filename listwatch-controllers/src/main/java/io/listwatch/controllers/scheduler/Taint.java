package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's taint. Immutable.
 *
 * @param key the taint's key
 * @param value its value, {@code ""} if none
 * @param effect {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}
 */
record Taint(String key, String value, String effect) {

  static final String NO_SCHEDULE = "NoSchedule";
  static final String NO_EXECUTE = "NoExecute";
  /** The taint kube puts on a cordoned node ({@code spec.unschedulable}). */
  static final String UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

  /** The taints of {@code spec.taints}. */
  static List<Taint> of(JsonNode taints) {
    List<Taint> list = new ArrayList<>();
    for (JsonNode t : taints) {
      list.add(new Taint(t.path("key").asText(""), t.path("value").asText(""), t.path("effect").asText("")));
    }
    return List.copyOf(list);
  }
}

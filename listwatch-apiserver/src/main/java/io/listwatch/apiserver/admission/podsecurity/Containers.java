package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Every container of a pod spec, as kube's checks visit them ({@code visitContainers}): init
 * containers, then containers, then ephemeral containers, each in spec order. Stateless.
 */
final class Containers {

  private Containers() {
  }

  /** The containers of {@code spec} in kube's visiting order. */
  static List<JsonNode> of(JsonNode spec) {
    List<JsonNode> all = new ArrayList<>();
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      for (JsonNode c : spec.path(list)) {
        all.add(c);
      }
    }
    return all;
  }

  /** A container's name. */
  static String name(JsonNode container) {
    return container.path("name").asText("");
  }

  /** A container's (or a pod spec's) {@code securityContext}; a missing node when unset. */
  static JsonNode securityContext(JsonNode containerOrSpec) {
    return containerOrSpec.path("securityContext");
  }

  /** Whether {@code node} is set: present and not null. */
  static boolean set(JsonNode node) {
    return !node.isMissingNode() && !node.isNull();
  }

  /** Whether {@code node} is the boolean {@code true}. */
  static boolean isTrue(JsonNode node) {
    return node.isBoolean() && node.booleanValue();
  }
}

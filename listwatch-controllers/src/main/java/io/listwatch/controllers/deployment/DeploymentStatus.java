package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Deployment's {@code status}, compared by value so that the controller writes it only when
 * something changed (kube compares with {@code reflect.DeepEqual}). Zero counts are left out
 * of the JSON, as kube's {@code omitempty} does. Immutable.
 */
record DeploymentStatus(long observedGeneration, int replicas, int updatedReplicas, int readyReplicas,
    int availableReplicas, int unavailableReplicas, Integer collisionCount, List<DeploymentCondition> conditions) {

  DeploymentStatus {
    conditions = List.copyOf(conditions);
  }

  static DeploymentStatus read(JsonNode s) {
    List<DeploymentCondition> conditions = new ArrayList<>();
    s.path("conditions").forEach(c -> conditions.add(DeploymentCondition.read(c)));
    JsonNode cc = s.get("collisionCount");
    return new DeploymentStatus(s.path("observedGeneration").asLong(0), s.path("replicas").asInt(0),
        s.path("updatedReplicas").asInt(0), s.path("readyReplicas").asInt(0), s.path("availableReplicas").asInt(0),
        s.path("unavailableReplicas").asInt(0), cc == null || cc.isNull() ? null : cc.asInt(), conditions);
  }

  Optional<DeploymentCondition> condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }

  /**
   * kube's {@code SetDeploymentCondition}: no change when a condition of the type has the same
   * status and reason; otherwise replaces it, keeping its lastTransitionTime if the status
   * is unchanged.
   */
  DeploymentStatus withCondition(DeploymentCondition c) {
    Optional<DeploymentCondition> current = condition(c.type());
    if (current.isPresent() && current.get().status().equals(c.status())
        && current.get().reason().equals(c.reason())) {
      return this;
    }
    if (current.isPresent() && current.get().status().equals(c.status())) {
      c = c.withLastTransitionTime(current.get().lastTransitionTime());
    }
    List<DeploymentCondition> out = new ArrayList<>(without(c.type()).conditions);
    out.add(c);
    return withConditions(out);
  }

  /** kube's {@code RemoveDeploymentCondition}. */
  DeploymentStatus without(String type) {
    return withConditions(conditions.stream().filter(x -> !x.type().equals(type)).toList());
  }

  DeploymentStatus withConditions(List<DeploymentCondition> list) {
    return new DeploymentStatus(observedGeneration, replicas, updatedReplicas, readyReplicas, availableReplicas,
        unavailableReplicas, collisionCount, list);
  }

  DeploymentStatus withCollisionCount(Integer count) {
    return new DeploymentStatus(observedGeneration, replicas, updatedReplicas, readyReplicas, availableReplicas,
        unavailableReplicas, count, conditions);
  }

  DeploymentStatus withObservedGeneration(long generation) {
    return new DeploymentStatus(generation, replicas, updatedReplicas, readyReplicas, availableReplicas,
        unavailableReplicas, collisionCount, conditions);
  }

  ObjectNode toTree() {
    ObjectNode n = Trees.NODES.objectNode();
    if (observedGeneration != 0) {
      n.put("observedGeneration", observedGeneration);
    }
    putIfSet(n, "replicas", replicas);
    putIfSet(n, "updatedReplicas", updatedReplicas);
    putIfSet(n, "readyReplicas", readyReplicas);
    putIfSet(n, "availableReplicas", availableReplicas);
    putIfSet(n, "unavailableReplicas", unavailableReplicas);
    if (!conditions.isEmpty()) {
      ArrayNode a = n.putArray("conditions");
      conditions.forEach(c -> a.add(c.toTree()));
    }
    if (collisionCount != null) {
      n.put("collisionCount", collisionCount);
    }
    return n;
  }

  private static void putIfSet(ObjectNode n, String field, int value) {
    if (value != 0) {
      n.put(field, value);
    }
  }
}

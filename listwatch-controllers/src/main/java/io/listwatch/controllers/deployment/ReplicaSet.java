package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A ReplicaSet as the deployment controller reads it: a private, mutable copy of the object's
 * tree with typed accessors. Confined to the worker thread that synced its deployment.
 */
final class ReplicaSet {

  private final ObjectNode tree;

  ReplicaSet(ObjectNode tree) {
    this.tree = tree;
  }

  static ReplicaSet of(DynamicObject object) {
    return new ReplicaSet(object.toTree());
  }

  ObjectNode tree() {
    return tree;
  }

  private JsonNode meta() {
    return tree.path("metadata");
  }

  String namespace() {
    return meta().path("namespace").asText("");
  }

  String name() {
    return meta().path("name").asText("");
  }

  String uid() {
    return meta().path("uid").asText("");
  }

  long generation() {
    return meta().path("generation").asLong(0);
  }

  Instant creationTimestamp() {
    return Trees.parseTime(meta().path("creationTimestamp").asText(""));
  }

  boolean deleting() {
    return meta().hasNonNull("deletionTimestamp");
  }

  Map<String, String> labels() {
    Map<String, String> out = new HashMap<>();
    meta().path("labels").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  Map<String, String> annotations() {
    Map<String, String> out = new HashMap<>();
    meta().path("annotations").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  Optional<String> annotation(String key) {
    JsonNode v = meta().path("annotations").get(key);
    return v == null || !v.isTextual() ? Optional.empty() : Optional.of(v.asText());
  }

  void setAnnotation(String key, String value) {
    Trees.object(Trees.object(tree, "metadata"), "annotations").put(key, value);
  }

  /** The uid of the controller owner reference, if any (kube's {@code GetControllerOf}). */
  Optional<String> controllerUid() {
    for (JsonNode ref : meta().path("ownerReferences")) {
      if (ref.path("controller").asBoolean(false)) {
        return Optional.of(ref.path("uid").asText(""));
      }
    }
    return Optional.empty();
  }

  int replicas() {
    return tree.path("spec").path("replicas").asInt(1);
  }

  void setReplicas(int replicas) {
    Trees.object(tree, "spec").put("replicas", replicas);
  }

  int minReadySeconds() {
    return tree.path("spec").path("minReadySeconds").asInt(0);
  }

  void setMinReadySeconds(int seconds) {
    Trees.object(tree, "spec").put("minReadySeconds", seconds);
  }

  JsonNode template() {
    return tree.path("spec").path("template");
  }

  int statusReplicas() {
    return tree.path("status").path("replicas").asInt(0);
  }

  int readyReplicas() {
    return tree.path("status").path("readyReplicas").asInt(0);
  }

  int availableReplicas() {
    return tree.path("status").path("availableReplicas").asInt(0);
  }

  long observedGeneration() {
    return tree.path("status").path("observedGeneration").asLong(0);
  }

  JsonNode conditions() {
    return tree.path("status").path("conditions");
  }

  DynamicObject toObject() {
    return DynamicObject.of(tree);
  }

  @Override
  public String toString() {
    return "ReplicaSet " + namespace() + "/" + name();
  }
}

package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.client.DynamicObject;

/**
 * A Deployment as the controller reads it: a private, mutable copy of the object's tree with
 * typed accessors for the fields kube's controller uses. Values the server defaults (replicas,
 * strategy, revisionHistoryLimit, progressDeadlineSeconds) are read with kube's defaults too, so
 * an object from any server reads the same.
 *
 * <p>Confined to the worker thread that synced it.
 */
final class Deployment {

  static final String RECREATE = "Recreate";
  static final String ROLLING_UPDATE = "RollingUpdate";

  private final ObjectNode tree;
  private DeploymentStatus status;

  Deployment(ObjectNode tree) {
    this.tree = tree;
    this.status = DeploymentStatus.read(tree.path("status"));
  }

  static Deployment of(DynamicObject object) {
    return new Deployment(object.toTree());
  }

  String namespace() {
    return tree.path("metadata").path("namespace").asText("");
  }

  String name() {
    return tree.path("metadata").path("name").asText("");
  }

  String uid() {
    return tree.path("metadata").path("uid").asText("");
  }

  long generation() {
    return tree.path("metadata").path("generation").asLong(0);
  }

  boolean deleting() {
    return tree.path("metadata").hasNonNull("deletionTimestamp");
  }

  ObjectNode annotations() {
    return Trees.object(Trees.object(tree, "metadata"), "annotations");
  }

  JsonNode spec() {
    return tree.path("spec");
  }

  int replicas() {
    return spec().path("replicas").asInt(1);
  }

  JsonNode selector() {
    return spec().get("selector");
  }

  /** The selector as a label selector; an empty or missing one selects everything. */
  LabelSelector labelSelector() {
    return LabelSelector.fromObject(selector());
  }

  /** Whether the selector is the empty one (kube refuses to act on it). */
  boolean selectsEverything() {
    JsonNode s = selector();
    return s == null || s.isNull() || (s.path("matchLabels").isEmpty() && s.path("matchExpressions").isEmpty());
  }

  JsonNode template() {
    return spec().path("template");
  }

  String strategyType() {
    return spec().path("strategy").path("type").asText(ROLLING_UPDATE);
  }

  boolean isRollingUpdate() {
    return strategyType().equals(ROLLING_UPDATE);
  }

  boolean paused() {
    return spec().path("paused").asBoolean(false);
  }

  int minReadySeconds() {
    return spec().path("minReadySeconds").asInt(0);
  }

  /** {@code revisionHistoryLimit}; null when the field is absent (kube then keeps every revision). */
  Integer revisionHistoryLimit() {
    JsonNode n = spec().get("revisionHistoryLimit");
    return n == null || n.isNull() ? null : n.asInt();
  }

  /** kube's {@code HasProgressDeadline}: set and not MaxInt32. */
  boolean hasProgressDeadline() {
    JsonNode n = spec().get("progressDeadlineSeconds");
    return n != null && !n.isNull() && n.asInt() != Integer.MAX_VALUE;
  }

  int progressDeadlineSeconds() {
    return spec().path("progressDeadlineSeconds").asInt(600);
  }

  /** The rolling update's bounds for {@code replicas()}. */
  Fenceposts fenceposts() {
    JsonNode ru = spec().path("strategy").path("rollingUpdate");
    int desired = replicas();
    return Fenceposts.resolve(ru.has("maxSurge") ? ru.get("maxSurge") : Trees.text("25%"),
        ru.has("maxUnavailable") ? ru.get("maxUnavailable") : Trees.text("25%"), desired);
  }

  /** kube's {@code MaxSurge}: 0 unless RollingUpdate. */
  int maxSurge() {
    return isRollingUpdate() ? fenceposts().maxSurge() : 0;
  }

  /** kube's {@code MaxUnavailable}: 0 unless RollingUpdate with replicas, at most replicas. */
  int maxUnavailable() {
    if (!isRollingUpdate() || replicas() == 0) {
      return 0;
    }
    return Math.min(fenceposts().maxUnavailable(), replicas());
  }

  DeploymentStatus status() {
    return status;
  }

  void setStatus(DeploymentStatus status) {
    this.status = status;
  }

  /** The object to send: the tree with the current status written in. */
  DynamicObject toObject() {
    ObjectNode copy = tree.deepCopy();
    copy.set("status", status.toTree());
    return DynamicObject.of(copy);
  }

  /** Takes the metadata (resourceVersion, annotations) of {@code stored}, the object a write returned. */
  void refresh(DynamicObject stored) {
    ObjectNode fresh = stored.toTree();
    tree.set("metadata", fresh.get("metadata"));
  }

  @Override
  public String toString() {
    return "Deployment " + namespace() + "/" + name();
  }
}

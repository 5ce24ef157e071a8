package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.apiserver.registry.CustomResourceVersion;
import io.listwatch.apiserver.strategy.WorkloadDefaults;
import java.util.Arrays;
import java.util.List;

/**
 * Where a scalable object keeps what its {@code autoscaling/v1 Scale} shows: the desired
 * replicas, the observed replicas and the label selector of what it scales.
 * <ul>
 *   <li>{@link #builtin()}: deployments, replicasets and statefulsets — {@code spec.replicas}
 *       (1 when missing, kube's default), {@code status.replicas}, and {@code spec.selector}, a
 *       LabelSelector printed as kube's {@code LabelSelectorAsSelector(...).String()} does;</li>
 *   <li>{@link #replicationController()}: the same fields, but {@code spec.selector} is a map of
 *       labels (kube's {@code SelectorFromSet(...).String()});</li>
 *   <li>{@link #custom}: a custom resource whose version declares {@code subresources.scale} —
 *       {@code specReplicasPath} (0 when missing, as kube's apiextensions server reads it),
 *       {@code statusReplicasPath}, and {@code labelSelectorPath}, a selector already in string
 *       form ("" when not declared or missing).</li>
 * </ul>
 * A value of the wrong JSON type reads as missing. Immutable and thread-safe.
 */
final class ScaleFields {

  private final List<String> specReplicas;
  private final List<String> statusReplicas;
  /** The path of a string selector; null for built-ins (a LabelSelector at spec.selector). */
  private final List<String> labelSelector;
  private final int defaultReplicas;
  /** For built-ins: whether spec.selector is a map of labels rather than a LabelSelector. */
  private final boolean selectorIsSet;

  private ScaleFields(List<String> specReplicas, List<String> statusReplicas, List<String> labelSelector,
      int defaultReplicas, boolean selectorIsSet) {
    this.specReplicas = specReplicas;
    this.statusReplicas = statusReplicas;
    this.labelSelector = labelSelector;
    this.defaultReplicas = defaultReplicas;
    this.selectorIsSet = selectorIsSet;
  }

  /** The fields of the built-in scalable kinds of apps/v1. */
  static ScaleFields builtin() {
    return new ScaleFields(List.of("spec", "replicas"), List.of("status", "replicas"), null,
        WorkloadDefaults.DEFAULT_REPLICAS, false);
  }

  /** The fields of v1 ReplicationControllers, whose selector is a map of labels. */
  static ScaleFields replicationController() {
    return new ScaleFields(List.of("spec", "replicas"), List.of("status", "replicas"), null,
        WorkloadDefaults.DEFAULT_REPLICAS, true);
  }

  /**
   * The fields a custom resource version's {@code subresources.scale} names (paths such as
   * {@code .spec.replicas}, which the definition's validation has checked).
   */
  static ScaleFields custom(CustomResourceVersion version) {
    JsonNode scale = version.version().path("subresources").path("scale");
    String selector = scale.path("labelSelectorPath").asText("");
    return new ScaleFields(steps(scale.path("specReplicasPath").asText(".spec.replicas")),
        steps(scale.path("statusReplicasPath").asText(".status.replicas")),
        selector.isEmpty() ? List.of() : steps(selector), 0, false);
  }

  private static List<String> steps(String path) {
    return Arrays.stream(path.split("\\.")).filter(s -> !s.isEmpty()).toList();
  }

  /** The desired replicas of {@code obj}. */
  int specReplicas(JsonNode obj) {
    JsonNode n = walk(obj, specReplicas);
    return n.isIntegralNumber() ? n.intValue() : defaultReplicas;
  }

  /** The observed replicas of {@code obj}; 0 when missing. */
  int statusReplicas(JsonNode obj) {
    JsonNode n = walk(obj, statusReplicas);
    return n.isIntegralNumber() ? n.intValue() : 0;
  }

  /** The label selector of what {@code obj} scales, as a selector string. */
  String selector(JsonNode obj) {
    if (labelSelector == null) {
      JsonNode selector = obj.path("spec").path("selector");
      if (selectorIsSet) {
        selector = JsonNodeFactory.instance.objectNode().set("matchLabels", selector);
      }
      return LabelSelector.fromObject(selector).toString();
    }
    if (labelSelector.isEmpty()) {
      return "";
    }
    JsonNode n = walk(obj, labelSelector);
    return n.isTextual() ? n.textValue() : "";
  }

  /** Sets the desired replicas in {@code obj}, creating the objects on the way. */
  void setSpecReplicas(ObjectNode obj, int replicas) {
    ObjectNode node = obj;
    for (String step : specReplicas.subList(0, specReplicas.size() - 1)) {
      node = node.get(step) instanceof ObjectNode o ? o : node.putObject(step);
    }
    node.put(specReplicas.getLast(), replicas);
  }

  private static JsonNode walk(JsonNode obj, List<String> steps) {
    JsonNode n = obj;
    for (String step : steps) {
      n = n.path(step);
    }
    return n;
  }
}

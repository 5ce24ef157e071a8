package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's mandatory API Priority and Fairness configuration (the {@code mandatory} set of
 * apiserver's flowcontrol bootstrap): the PriorityLevelConfigurations {@code exempt} (type
 * Exempt, nominal shares 0, lendable 0) and {@code catch-all} (Limited, 5 shares, lendable 0,
 * Reject), and the FlowSchemas {@code exempt} (precedence 1, group {@code system:masters}, to
 * level {@code exempt}) and {@code catch-all} (precedence 10000, ByUser, groups
 * {@code system:unauthenticated} and {@code system:authenticated}, to level {@code catch-all}),
 * each matching every verb, resource (cluster-scoped or in any namespace) and non-resource URL.
 * kube-apiserver creates them at start, annotated {@code apf.kubernetes.io/autoupdate-spec: "true"};
 * validation holds an object of one of these names to its spec
 * ({@link PriorityLevelConfigurationStrategy}, {@link FlowSchemaStrategy}).
 *
 * <p>Stateless: every call builds fresh objects the caller may change.
 */
public final class MandatoryFlowcontrolConfiguration {

  static final String API_VERSION = "flowcontrol.apiserver.k8s.io/v1";
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private MandatoryFlowcontrolConfiguration() {
  }

  /** The mandatory PriorityLevelConfigurations, {@code exempt} then {@code catch-all}. */
  public static List<ObjectNode> priorityLevelConfigurations() {
    return List.of(object("PriorityLevelConfiguration", "exempt", priorityLevelSpec("exempt")),
        object("PriorityLevelConfiguration", "catch-all", priorityLevelSpec("catch-all")));
  }

  /** The mandatory FlowSchemas, {@code exempt} then {@code catch-all}. */
  public static List<ObjectNode> flowSchemas() {
    return List.of(object("FlowSchema", "exempt", flowSchemaSpec("exempt")),
        object("FlowSchema", "catch-all", flowSchemaSpec("catch-all")));
  }

  /** The fixed spec of the mandatory PriorityLevelConfiguration {@code name}, or null if none. */
  static ObjectNode priorityLevelSpec(String name) {
    ObjectNode spec = JSON.objectNode();
    switch (name) {
      case "exempt" -> {
        spec.put("type", "Exempt");
        spec.putObject("exempt").put("nominalConcurrencyShares", 0).put("lendablePercent", 0);
      }
      case "catch-all" -> {
        spec.put("type", "Limited");
        spec.putObject("limited").put("nominalConcurrencyShares", 5).put("lendablePercent", 0)
            .putObject("limitResponse").put("type", "Reject");
      }
      default -> {
        return null;
      }
    }
    return spec;
  }

  /** The fixed spec of the mandatory FlowSchema {@code name}, or null if none. */
  static ObjectNode flowSchemaSpec(String name) {
    List<String> groups;
    ObjectNode spec = JSON.objectNode();
    switch (name) {
      case "exempt" -> {
        groups = List.of("system:masters");
        spec.putObject("priorityLevelConfiguration").put("name", "exempt");
        spec.put("matchingPrecedence", 1);
      }
      case "catch-all" -> {
        groups = List.of("system:unauthenticated", "system:authenticated");
        spec.putObject("priorityLevelConfiguration").put("name", "catch-all");
        spec.put("matchingPrecedence", 10000);
        spec.putObject("distinguisherMethod").put("type", "ByUser");
      }
      default -> {
        return null;
      }
    }
    ObjectNode rule = spec.putArray("rules").addObject();
    ArrayNode subjects = rule.putArray("subjects");
    for (String group : groups) {
      subjects.addObject().put("kind", "Group").putObject("group").put("name", group);
    }
    ObjectNode resources = rule.putArray("resourceRules").addObject();
    resources.putArray("verbs").add("*");
    resources.putArray("apiGroups").add("*");
    resources.putArray("resources").add("*");
    resources.put("clusterScope", true);
    resources.putArray("namespaces").add("*");
    ObjectNode nonResources = rule.putArray("nonResourceRules").addObject();
    nonResources.putArray("verbs").add("*");
    nonResources.putArray("nonResourceURLs").add("*");
    return spec;
  }

  /**
   * A flowcontrol.apiserver.k8s.io/v1 object of {@code kind} named {@code name} with
   * {@code spec}, annotated as kube annotates the objects it maintains
   * ({@code apf.kubernetes.io/autoupdate-spec: "true"}); for the mandatory and the suggested ones.
   */
  public static ObjectNode object(String kind, String name, ObjectNode spec) {
    ObjectNode obj = JSON.objectNode().put("apiVersion", API_VERSION).put("kind", kind);
    obj.putObject("metadata").put("name", name).putObject("annotations")
        .put("apf.kubernetes.io/autoupdate-spec", "true");
    obj.set("spec", spec);
    return obj;
  }

  /**
   * kube's {@code apiequality.Semantic.DeepEqual} of two specs as JSON: a missing field equals
   * its Go zero value where the Go field is not a pointer ({@code null}, {@code ""},
   * {@code false}, an empty list or object), numbers compare by value.
   */
  static boolean semanticallyEqual(JsonNode a, JsonNode b) {
    return normalized(a).equals(normalized(b));
  }

  private static JsonNode normalized(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = JSON.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode v = normalized(e.getValue());
        if (!isZero(v)) {
          out.set(e.getKey(), v);
        }
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = JSON.arrayNode();
      node.forEach(v -> out.add(normalized(v)));
      return out;
    }
    if (node.isIntegralNumber()) {
      return JSON.numberNode(node.longValue());
    }
    return node;
  }

  private static boolean isZero(JsonNode v) {
    return v.isNull() || v.isMissingNode() || (v.isTextual() && v.textValue().isEmpty())
        || (v.isBoolean() && !v.booleanValue()) || (v.isContainerNode() && v.isEmpty());
  }
}

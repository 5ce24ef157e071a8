package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a write falls within a {@code PolicyMatcher} (a policy's {@code matchConstraints}, a
 * binding's {@code matchResources}): kube's {@code policy/matching.Matcher}. In kube's order: the
 * {@code namespaceSelector} (on the labels of the request's namespace; a cluster-scoped object
 * other than a Namespace always passes, a Namespace is matched on its own labels), the
 * {@code objectSelector} (on the labels of the new or the old object: either passing is
 * enough), then {@code excludeResourceRules} (any rule matching excludes), then
 * {@code resourceRules} (one must match; none listed matches every resource). A rule matches on
 * its {@code operations}, {@code apiGroups}, {@code apiVersions}, {@code resources} (with
 * {@code res/sub} subresource forms and {@code *}), {@code scope} and {@code resourceNames}.
 *
 * <p>{@code matchPolicy: Equivalent} matches as {@code Exact} here: this server serves each
 * resource in one version only, so kube's equivalent versions never exist.
 *
 * <p>Stateless; thread-safe.
 */
final class PolicyMatcher {

  private PolicyMatcher() {
  }

  /** Whether {@code a} falls within {@code matchResources} (null or missing: every request). */
  static boolean matches(JsonNode matchResources, AdmissionAttributes a, Listers listers) {
    if (matchResources == null || !matchResources.isObject()) {
      return true;
    }
    if (!namespaceMatches(matchResources.path("namespaceSelector"), a, listers)) {
      return false;
    }
    if (!objectMatches(matchResources.path("objectSelector"), a)) {
      return false;
    }
    for (JsonNode rule : matchResources.path("excludeResourceRules")) {
      if (ruleMatches(rule, a)) {
        return false;
      }
    }
    JsonNode rules = matchResources.path("resourceRules");
    if (rules.isEmpty()) {
      return true;
    }
    for (JsonNode rule : rules) {
      if (ruleMatches(rule, a)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNamespace(AdmissionAttributes a) {
    return a.resource().group().isEmpty() && a.resource().plural().equals("namespaces");
  }

  private static boolean namespaceMatches(JsonNode selector, AdmissionAttributes a, Listers listers) {
    LabelSelector s = LabelSelector.fromObject(selector.isObject() ? selector : null);
    if (s.isEverything()) {
      return true;
    }
    if (isNamespace(a)) {
      return s.matches(labels(a.object() != null ? a.object() : a.oldObject()));
    }
    if (a.namespace().isEmpty()) {
      return true;
    }
    return s.matches(labels(listers.get("", "namespaces", "", a.namespace()).orElse(null)));
  }

  private static boolean objectMatches(JsonNode selector, AdmissionAttributes a) {
    LabelSelector s = LabelSelector.fromObject(selector.isObject() ? selector : null);
    if (s.isEverything()) {
      return true;
    }
    return (a.object() != null && s.matches(labels(a.object())))
        || (a.oldObject() != null && s.matches(labels(a.oldObject())));
  }

  /** The labels of {@code obj}, empty for null. */
  static Map<String, String> labels(ObjectNode obj) {
    Map<String, String> out = new HashMap<>();
    if (obj != null) {
      obj.path("metadata").path("labels").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    }
    return out;
  }

  /** kube's {@code NamedRuleWithOperations} matcher. */
  static boolean ruleMatches(JsonNode rule, AdmissionAttributes a) {
    String operation = a.operation().name().toUpperCase(Locale.ROOT);
    return listed(rule.path("operations"), operation)
        && listed(rule.path("apiGroups"), a.resource().group())
        && listed(rule.path("apiVersions"), a.resource().version())
        && resourceListed(rule.path("resources"), a.resource().plural(), a.subresource())
        && scopeMatches(rule.path("scope").asText("*"), a)
        && namesMatch(rule.path("resourceNames"), a.name());
  }

  private static boolean listed(JsonNode values, String value) {
    for (JsonNode v : values) {
      if (v.asText().equals("*") || v.asText().equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static boolean resourceListed(JsonNode resources, String resource, String subresource) {
    for (JsonNode r : resources) {
      String text = r.asText();
      int slash = text.indexOf('/');
      String res = slash < 0 ? text : text.substring(0, slash);
      String sub = slash < 0 ? "" : text.substring(slash + 1);
      if ((res.equals("*") || res.equals(resource)) && (sub.equals("*") || sub.equals(subresource))) {
        return true;
      }
    }
    return false;
  }

  private static boolean scopeMatches(String scope, AdmissionAttributes a) {
    boolean namespaced = a.resource().namespaced();
    return switch (scope) {
      case "Cluster" -> !namespaced;
      case "Namespaced" -> namespaced;
      default -> true;
    };
  }

  private static boolean namesMatch(JsonNode names, String name) {
    if (names.isEmpty()) {
      return true;
    }
    for (JsonNode n : names) {
      if (n.asText().equals(name)) {
        return true;
      }
    }
    return false;
  }
}

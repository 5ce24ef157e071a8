package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.authz.Attributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One RBAC rule (rbac.authorization.k8s.io/v1 {@code PolicyRule}) and kube's rule matching.
 * Immutable.
 *
 * <p>Matching, as kube's RBAC authorizer does it:
 * <ul>
 *   <li>verbs and apiGroups: {@code *} or an exact entry;
 *   <li>resources: {@code *}, the exact resource, the exact {@code resource/subresource}, or
 *       {@code * /subresource} (any resource's subresource). A {@code resource/*} entry has no
 *       wildcard meaning in kube and matches only literally;
 *   <li>resourceNames: an empty list matches every name; otherwise only a request that names
 *       one of them (so a list, watch or create without a name never matches);
 *   <li>nonResourceURLs: {@code *}, the exact path, or a prefix given with a trailing {@code *}.
 * </ul>
 */
public record PolicyRule(List<String> verbs, List<String> apiGroups, List<String> resources,
    List<String> resourceNames, List<String> nonResourceURLs) {

  /** The wildcard of every list. */
  public static final String ALL = "*";

  public PolicyRule {
    verbs = List.copyOf(verbs);
    apiGroups = List.copyOf(apiGroups);
    resources = List.copyOf(resources);
    resourceNames = List.copyOf(resourceNames);
    nonResourceURLs = List.copyOf(nonResourceURLs);
  }

  /** A resource rule. */
  public static PolicyRule resource(List<String> verbs, List<String> apiGroups, List<String> resources,
      List<String> resourceNames) {
    return new PolicyRule(verbs, apiGroups, resources, resourceNames, List.of());
  }

  /** A non-resource rule. */
  public static PolicyRule nonResource(List<String> verbs, List<String> urls) {
    return new PolicyRule(verbs, List.of(), List.of(), List.of(), urls);
  }

  /** Reads a rule; absent or non-string entries are left out (validation reports them). */
  public static PolicyRule fromJson(JsonNode rule) {
    return new PolicyRule(strings(rule.get("verbs")), strings(rule.get("apiGroups")), strings(rule.get("resources")),
        strings(rule.get("resourceNames")), strings(rule.get("nonResourceURLs")));
  }

  /** The rules of a Role or ClusterRole object ({@code .rules}). */
  public static List<PolicyRule> listFromJson(JsonNode rules) {
    List<PolicyRule> out = new ArrayList<>();
    if (rules != null && rules.isArray()) {
      rules.forEach(r -> out.add(fromJson(r)));
    }
    return List.copyOf(out);
  }

  /** The rule as JSON, with empty lists left out as kube's omitempty does ({@code verbs} always). */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.putArray("verbs").addAll(verbs.stream().map(JsonNodeFactory.instance::textNode).toList());
    put(o, "apiGroups", apiGroups);
    put(o, "resources", resources);
    put(o, "resourceNames", resourceNames);
    put(o, "nonResourceURLs", nonResourceURLs);
    return o;
  }

  /** kube's {@code RuleAllows}: whether this rule allows the request. */
  public boolean allows(Attributes a) {
    if (!a.resourceRequest()) {
      return verbMatches(a.verb()) && nonResourceURLMatches(a.path());
    }
    String combined = a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
    return verbMatches(a.verb()) && apiGroupMatches(a.apiGroup()) && resourceMatches(combined, a.subresource())
        && resourceNameMatches(a.name());
  }

  boolean verbMatches(String verb) {
    return verbs.contains(ALL) || verbs.contains(verb);
  }

  boolean apiGroupMatches(String group) {
    return apiGroups.contains(ALL) || apiGroups.contains(group);
  }

  /**
   * @param combined {@code resource} or {@code resource/subresource}
   * @param subresource the subresource alone, "" if none
   */
  boolean resourceMatches(String combined, String subresource) {
    for (String r : resources) {
      if (r.equals(ALL) || r.equals(combined)) {
        return true;
      }
      if (!subresource.isEmpty() && r.equals("*/" + subresource)) {
        return true;
      }
    }
    return false;
  }

  boolean resourceNameMatches(String name) {
    return resourceNames.isEmpty() || resourceNames.contains(name);
  }

  boolean nonResourceURLMatches(String path) {
    for (String url : nonResourceURLs) {
      if (urlCovers(url, path)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a nonResourceURLs entry covers a path: {@code *}, equal, or a {@code prefix*}. */
  static boolean urlCovers(String ruleUrl, String path) {
    if (ruleUrl.equals(ALL) || ruleUrl.equals(path)) {
      return true;
    }
    return ruleUrl.endsWith("*") && path.startsWith(ruleUrl.substring(0, ruleUrl.length() - 1));
  }

  /**
   * kube's compact form, as escalation errors print missing rules:
   * {@code {APIGroups:[""], Resources:["pods"], Verbs:["create" "delete"]}}.
   */
  public String compactString() {
    List<String> parts = new ArrayList<>();
    if (!apiGroups.isEmpty()) {
      parts.add("APIGroups:" + goQuoted(apiGroups));
    }
    if (!resources.isEmpty()) {
      parts.add("Resources:" + goQuoted(resources));
    }
    if (!nonResourceURLs.isEmpty()) {
      parts.add("NonResourceURLs:" + goQuoted(nonResourceURLs));
    }
    if (!resourceNames.isEmpty()) {
      parts.add("ResourceNames:" + goQuoted(resourceNames));
    }
    if (!verbs.isEmpty()) {
      parts.add("Verbs:" + goQuoted(verbs));
    }
    return "{" + String.join(", ", parts) + "}";
  }

  /** A string list as Go's {@code %q} prints it: {@code ["a" "b"]}. */
  static String goQuoted(List<String> values) {
    return values.stream().map(PolicyRule::goQuote).collect(Collectors.joining(" ", "[", "]"));
  }

  static String goQuote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\x%02x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static void put(ObjectNode o, String field, List<String> values) {
    if (!values.isEmpty()) {
      o.putArray(field).addAll(values.stream().map(JsonNodeFactory.instance::textNode).toList());
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    if (array != null && array.isArray()) {
      array.forEach(n -> {
        if (n.isTextual()) {
          out.add(n.textValue());
        }
      });
    }
    return out;
  }
}

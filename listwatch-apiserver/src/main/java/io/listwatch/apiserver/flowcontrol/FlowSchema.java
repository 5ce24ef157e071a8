package io.listwatch.apiserver.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.util.Comparator;

/**
 * One stored FlowSchema as API Priority and Fairness reads it (kube's {@code rule_matching.go}
 * and the classification of {@code apf_controller.go}): which requests it matches, the priority
 * level they go to, and how they are split into flows.
 *
 * <p>kube's matching rules, ported: a schema matches when one of its {@code rules} matches; a
 * rule matches when one of its {@code subjects} names the user (a {@code User} by name, a
 * {@code Group} the user is in, a {@code ServiceAccount} by namespace and name, {@code "*"}
 * for any) and one of its resource rules (for a resource request) or non-resource rules (for
 * any other) matches the request. A resource rule matches a verb, an API group and a resource
 * ({@code resource/subresource} for a subresource) each listed or {@code "*"}, and a namespace
 * listed or {@code "*"}, or no namespace when {@code clusterScope} is true. A non-resource URL
 * matches {@code "*"}, itself, or a pattern {@code /prefix/*} (the prefix and everything under
 * it). Schemas are tried in {@link #ORDER}: lower {@code matchingPrecedence} first, then name.
 *
 * <p>Immutable.
 *
 * @param spec the object's {@code spec}
 */
record FlowSchema(String name, String uid, int matchingPrecedence, String priorityLevel, String distinguisherMethod,
    JsonNode spec) {

  /** kube's order of evaluation. */
  static final Comparator<FlowSchema> ORDER =
      Comparator.comparingInt(FlowSchema::matchingPrecedence).thenComparing(FlowSchema::name);
  static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
  private static final String ALL = "*";

  /** Reads a stored FlowSchema (already validated and defaulted by its strategy). */
  static FlowSchema from(JsonNode object) {
    JsonNode spec = object.path("spec");
    String method = spec.path("distinguisherMethod").path("type").asText("");
    return new FlowSchema(object.path("metadata").path("name").asText(), object.path("metadata").path("uid").asText(""),
        spec.path("matchingPrecedence").asInt(1000), spec.path("priorityLevelConfiguration").path("name").asText(),
        method, spec);
  }

  /** Whether the request of {@code user} described by {@code info} belongs to this schema. */
  boolean matches(UserInfo user, RequestInfo info) {
    for (JsonNode rule : spec.path("rules")) {
      if (matchesSubjects(rule.path("subjects"), user) && matchesRules(rule, info)) {
        return true;
      }
    }
    return false;
  }

  /** The flow distinguisher: the user's name (ByUser), the namespace (ByNamespace), or "". */
  String flowDistinguisher(UserInfo user, RequestInfo info) {
    return switch (distinguisherMethod) {
      case "ByUser" -> user.name();
      case "ByNamespace" -> info.namespace();
      default -> "";
    };
  }

  private static boolean matchesSubjects(JsonNode subjects, UserInfo user) {
    for (JsonNode s : subjects) {
      boolean match = switch (s.path("kind").asText()) {
        case "User" -> nameMatches(s.path("user").path("name").asText(), user.name());
        case "Group" -> {
          String group = s.path("group").path("name").asText();
          yield group.equals(ALL) || user.inGroup(group);
        }
        case "ServiceAccount" -> serviceAccountMatches(s.path("serviceAccount"), user.name());
        default -> false;
      };
      if (match) {
        return true;
      }
    }
    return false;
  }

  private static boolean serviceAccountMatches(JsonNode account, String userName) {
    if (!userName.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      return false;
    }
    String[] parts = userName.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
    return parts.length == 2 && parts[0].equals(account.path("namespace").asText())
        && nameMatches(account.path("name").asText(), parts[1]);
  }

  private static boolean nameMatches(String pattern, String name) {
    return pattern.equals(ALL) || pattern.equals(name);
  }

  private static boolean matchesRules(JsonNode rule, RequestInfo info) {
    if (info.resourceRequest()) {
      for (JsonNode r : rule.path("resourceRules")) {
        if (listed(r.path("verbs"), info.verb()) && listed(r.path("apiGroups"), info.group())
            && listed(r.path("resources"), info.subresource().isEmpty() ? info.resource()
                : info.resource() + "/" + info.subresource())
            && (info.namespace().isEmpty() ? r.path("clusterScope").asBoolean(false)
                : listed(r.path("namespaces"), info.namespace()))) {
          return true;
        }
      }
      return false;
    }
    for (JsonNode r : rule.path("nonResourceRules")) {
      if (listed(r.path("verbs"), info.verb()) && urlListed(r.path("nonResourceURLs"), info.path())) {
        return true;
      }
    }
    return false;
  }

  private static boolean listed(JsonNode values, String value) {
    for (JsonNode v : values) {
      if (v.asText().equals(ALL) || v.asText().equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static boolean urlListed(JsonNode patterns, String path) {
    for (JsonNode p : patterns) {
      String pattern = p.asText();
      if (pattern.equals(ALL) || pattern.equals(path)) {
        return true;
      }
      if (pattern.endsWith("/*")) {
        String prefix = pattern.substring(0, pattern.length() - 1); // keeps the slash
        if (path.startsWith(prefix) || path.equals(prefix.substring(0, prefix.length() - 1))) {
          return true;
        }
      }
    }
    return false;
  }
}

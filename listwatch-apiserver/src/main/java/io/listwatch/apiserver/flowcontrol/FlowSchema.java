package io.listwatch.apiserver.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 * <p>Immutable. The rules are read from the stored object once ({@link #from}): every request is
 * matched against the schemas in turn, most against all of them.
 */
record FlowSchema(String name, String uid, int matchingPrecedence, String priorityLevel, String distinguisherMethod,
    List<Rule> rules) {

  /** kube's order of evaluation. */
  static final Comparator<FlowSchema> ORDER =
      Comparator.comparingInt(FlowSchema::matchingPrecedence).thenComparing(FlowSchema::name);
  static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
  private static final String ALL = "*";

  /** One of {@code rules}: its subjects, and its resource and non-resource rules. */
  record Rule(List<Subject> subjects, List<ResourceRule> resourceRules, List<NonResourceRule> nonResourceRules) {
  }

  /**
   * A subject: {@code kind} {@code User} or {@code Group} with its {@code name}, or
   * {@code ServiceAccount} with its {@code namespace} and {@code name}; another kind matches nobody.
   */
  record Subject(String kind, String namespace, String name) {
  }

  /** A resource rule; {@code resources} are {@code resource} or {@code resource/subresource}. */
  record ResourceRule(Set<String> verbs, Set<String> apiGroups, Set<String> resources, boolean clusterScope,
      Set<String> namespaces) {
  }

  /** A non-resource rule. */
  record NonResourceRule(Set<String> verbs, List<String> nonResourceURLs) {
  }

  /** Reads a stored FlowSchema (already validated and defaulted by its strategy). */
  static FlowSchema from(JsonNode object) {
    JsonNode spec = object.path("spec");
    String method = spec.path("distinguisherMethod").path("type").asText("");
    List<Rule> rules = new ArrayList<>();
    for (JsonNode rule : spec.path("rules")) {
      List<Subject> subjects = new ArrayList<>();
      for (JsonNode s : rule.path("subjects")) {
        String kind = s.path("kind").asText();
        subjects.add(switch (kind) {
          case "User" -> new Subject(kind, "", s.path("user").path("name").asText());
          case "Group" -> new Subject(kind, "", s.path("group").path("name").asText());
          case "ServiceAccount" -> new Subject(kind, s.path("serviceAccount").path("namespace").asText(),
              s.path("serviceAccount").path("name").asText());
          default -> new Subject(kind, "", "");
        });
      }
      List<ResourceRule> resourceRules = new ArrayList<>();
      for (JsonNode r : rule.path("resourceRules")) {
        resourceRules.add(new ResourceRule(strings(r.path("verbs")), strings(r.path("apiGroups")),
            strings(r.path("resources")), r.path("clusterScope").asBoolean(false), strings(r.path("namespaces"))));
      }
      List<NonResourceRule> nonResourceRules = new ArrayList<>();
      for (JsonNode r : rule.path("nonResourceRules")) {
        List<String> urls = new ArrayList<>();
        r.path("nonResourceURLs").forEach(u -> urls.add(u.asText()));
        nonResourceRules.add(new NonResourceRule(strings(r.path("verbs")), List.copyOf(urls)));
      }
      rules.add(new Rule(List.copyOf(subjects), List.copyOf(resourceRules), List.copyOf(nonResourceRules)));
    }
    return new FlowSchema(object.path("metadata").path("name").asText(), object.path("metadata").path("uid").asText(""),
        spec.path("matchingPrecedence").asInt(1000), spec.path("priorityLevelConfiguration").path("name").asText(),
        method, List.copyOf(rules));
  }

  private static Set<String> strings(JsonNode values) {
    Set<String> out = new HashSet<>();
    values.forEach(v -> out.add(v.asText()));
    return Set.copyOf(out);
  }

  /** Whether the request of {@code user} described by {@code info} belongs to this schema. */
  boolean matches(UserInfo user, RequestInfo info) {
    // indexed loops here: every request is matched against the schemas in turn, and under a flood
    // the iterators of this loop and the subjects' were about a third of what classifying allocated
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      if (matchesSubjects(rule.subjects(), user) && matchesRules(rule, info)) {
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

  private static boolean matchesSubjects(List<Subject> subjects, UserInfo user) {
    for (int i = 0; i < subjects.size(); i++) {
      Subject s = subjects.get(i);
      boolean match = switch (s.kind()) {
        case "User" -> nameMatches(s.name(), user.name());
        case "Group" -> s.name().equals(ALL) || user.inGroup(s.name());
        case "ServiceAccount" -> serviceAccountMatches(s, user.name());
        default -> false;
      };
      if (match) {
        return true;
      }
    }
    return false;
  }

  private static boolean serviceAccountMatches(Subject account, String userName) {
    if (!userName.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      return false;
    }
    String[] parts = userName.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
    return parts.length == 2 && parts[0].equals(account.namespace()) && nameMatches(account.name(), parts[1]);
  }

  private static boolean nameMatches(String pattern, String name) {
    return pattern.equals(ALL) || pattern.equals(name);
  }

  private static boolean matchesRules(Rule rule, RequestInfo info) {
    if (info.resourceRequest()) {
      for (ResourceRule r : rule.resourceRules()) {
        if (listed(r.verbs(), info.verb()) && listed(r.apiGroups(), info.group())
            && listed(r.resources(), info.subresource().isEmpty() ? info.resource()
                : info.resource() + "/" + info.subresource())
            && (info.namespace().isEmpty() ? r.clusterScope() : listed(r.namespaces(), info.namespace()))) {
          return true;
        }
      }
      return false;
    }
    for (NonResourceRule r : rule.nonResourceRules()) {
      if (listed(r.verbs(), info.verb()) && urlListed(r.nonResourceURLs(), info.path())) {
        return true;
      }
    }
    return false;
  }

  private static boolean listed(Set<String> values, String value) {
    return values.contains(ALL) || values.contains(value);
  }

  private static boolean urlListed(List<String> patterns, String path) {
    for (String pattern : patterns) {
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

package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.rest.WriteAdmission;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * kube's defaulting and validation of the four RBAC kinds, as a {@link WriteAdmission}: a bad
 * object is a 422 Invalid listing every problem (e.g. {@code rules[0].verbs: Required value:
 * verbs must contain at least one value}); a binding's {@code roleRef} may not change.
 * {@link #BINDING_DEFAULTS} sets kube's defaults first: {@code roleRef.apiGroup}, and a User or
 * Group subject's {@code apiGroup}, are rbac.authorization.k8s.io when empty. Stateless.
 */
final class RbacValidation implements WriteAdmission {

  static final String GROUP = "rbac.authorization.k8s.io";

  /** Which kind this instance checks. */
  enum Kind {
    ROLE("Role", true), CLUSTER_ROLE("ClusterRole", false), ROLE_BINDING("RoleBinding", true),
    CLUSTER_ROLE_BINDING("ClusterRoleBinding", false);

    final String kind;
    final boolean namespaced;

    Kind(String kind, boolean namespaced) {
      this.kind = kind;
      this.namespaced = namespaced;
    }
  }

  private final Kind kind;

  RbacValidation(Kind kind) {
    this.kind = kind;
  }

  @Override
  public void admit(UserInfo user, String namespace, ObjectNode object, ObjectNode old) {
    List<Status.Cause> causes = new ArrayList<>();
    switch (kind) {
      case ROLE, CLUSTER_ROLE -> validateRole(object, causes);
      case ROLE_BINDING, CLUSTER_ROLE_BINDING -> {
        validateBinding(object, causes);
        if (old != null && !RoleRef.fromJson(old.path("roleRef")).equals(RoleRef.fromJson(object.path("roleRef")))) {
          causes.add(cause(Reasons.FIELD_VALUE_INVALID, "roleRef",
              "Invalid value: " + goStruct(RoleRef.fromJson(object.path("roleRef"))) + ": cannot change roleRef"));
        }
      }
      default -> throw new IllegalStateException();
    }
    if (!causes.isEmpty()) {
      throw StatusException.invalid(GROUP, kind.kind, object.path("metadata").path("name").asText(""), causes);
    }
  }

  /** kube's defaulting of a binding, before the escalation check and validation see it. */
  static final WriteAdmission BINDING_DEFAULTS = (user, namespace, object, old) -> setDefaults(object);

  private static void setDefaults(ObjectNode binding) {
    if (binding.get("roleRef") instanceof ObjectNode ref && ref.path("apiGroup").asText("").isEmpty()) {
      ref.put("apiGroup", GROUP);
    }
    for (JsonNode s : binding.path("subjects")) {
      if (s instanceof ObjectNode subject && subject.path("apiGroup").asText("").isEmpty()) {
        String k = subject.path("kind").asText("");
        if (k.equals(Subject.USER) || k.equals(Subject.GROUP)) {
          subject.put("apiGroup", GROUP);
        }
      }
    }
  }

  private void validateRole(ObjectNode role, List<Status.Cause> causes) {
    JsonNode rules = role.path("rules");
    for (int i = 0; i < rules.size(); i++) {
      validateRule(PolicyRule.fromJson(rules.get(i)), "rules[" + i + "]", causes);
    }
    JsonNode aggregation = role.get("aggregationRule");
    if (kind == Kind.CLUSTER_ROLE && aggregation != null && aggregation.isObject()) {
      JsonNode selectors = aggregation.path("clusterRoleSelectors");
      if (selectors.isEmpty()) {
        causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, "aggregationRule.clusterRoleSelectors",
            "Required value: at least one clusterRoleSelector required if aggregationRule is non-nil"));
      }
      for (int i = 0; i < selectors.size(); i++) {
        try {
          LabelSelectors.fromJson(selectors.get(i));
        } catch (RuntimeException e) {
          causes.add(cause(Reasons.FIELD_VALUE_INVALID, "aggregationRule.clusterRoleSelectors[" + i + "]",
              "Invalid value: " + selectors.get(i) + ": invalid label selector."));
        }
      }
    }
  }

  /** kube's {@code ValidatePolicyRule}. */
  private void validateRule(PolicyRule rule, String path, List<Status.Cause> causes) {
    if (rule.verbs().isEmpty()) {
      causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, path + ".verbs",
          "Required value: verbs must contain at least one value"));
    }
    if (!rule.nonResourceURLs().isEmpty()) {
      if (kind.namespaced) {
        causes.add(cause(Reasons.FIELD_VALUE_INVALID, path + ".nonResourceURLs", "Invalid value: "
            + goSlice(rule.nonResourceURLs()) + ": namespaced rules cannot apply to non-resource URLs"));
      }
      if (!rule.apiGroups().isEmpty() || !rule.resources().isEmpty() || !rule.resourceNames().isEmpty()) {
        causes.add(cause(Reasons.FIELD_VALUE_INVALID, path + ".nonResourceURLs", "Invalid value: "
            + goSlice(rule.nonResourceURLs()) + ": rules cannot apply to both regular resources and non-resource URLs"));
      }
      return;
    }
    if (rule.apiGroups().isEmpty()) {
      causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, path + ".apiGroups",
          "Required value: resource rules must supply at least one api group"));
    }
    if (rule.resources().isEmpty()) {
      causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, path + ".resources",
          "Required value: resource rules must supply at least one resource"));
    }
  }

  /** kube's {@code ValidateRoleBinding} and {@code ValidateClusterRoleBinding}. */
  private void validateBinding(ObjectNode binding, List<Status.Cause> causes) {
    RoleRef ref = RoleRef.fromJson(binding.path("roleRef"));
    if (!ref.apiGroup().equals(GROUP)) {
      causes.add(notSupported("roleRef.apiGroup", ref.apiGroup(), List.of(GROUP)));
    }
    List<String> kinds = kind.namespaced ? List.of(RoleRef.ROLE, RoleRef.CLUSTER_ROLE) : List.of(RoleRef.CLUSTER_ROLE);
    if (!kinds.contains(ref.kind())) {
      causes.add(notSupported("roleRef.kind", ref.kind(), kinds));
    }
    if (ref.name().isEmpty()) {
      causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, "roleRef.name", "Required value"));
    } else {
      String problem = pathSegmentProblem(ref.name());
      if (problem != null) {
        causes.add(cause(Reasons.FIELD_VALUE_INVALID, "roleRef.name",
            "Invalid value: " + PolicyRule.goQuote(ref.name()) + ": " + problem));
      }
    }
    List<Subject> subjects = Subject.listFromJson(binding.get("subjects"));
    for (int i = 0; i < subjects.size(); i++) {
      validateSubject(subjects.get(i), "subjects[" + i + "]", causes);
    }
  }

  /** kube's {@code ValidateRoleBindingSubject}. */
  private void validateSubject(Subject s, String path, List<Status.Cause> causes) {
    if (s.name().isEmpty()) {
      causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, path + ".name", "Required value"));
    }
    switch (s.kind()) {
      case Subject.SERVICE_ACCOUNT -> {
        if (!s.name().isEmpty() && !s.name().matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")) {
          causes.add(cause(Reasons.FIELD_VALUE_INVALID, path + ".name", "Invalid value: " + PolicyRule.goQuote(s.name())
              + ": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
              + "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
              + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
        }
        if (!s.apiGroup().isEmpty()) {
          causes.add(notSupported(path + ".apiGroup", s.apiGroup(), List.of("")));
        }
        if (!kind.namespaced && s.namespace().isEmpty()) {
          causes.add(cause(Reasons.FIELD_VALUE_REQUIRED, path + ".namespace", "Required value"));
        }
      }
      case Subject.USER, Subject.GROUP -> {
        if (!s.apiGroup().equals(GROUP)) {
          causes.add(notSupported(path + ".apiGroup", s.apiGroup(), List.of(GROUP)));
        }
      }
      default -> causes.add(notSupported(path + ".kind", s.kind(),
          List.of(Subject.SERVICE_ACCOUNT, Subject.USER, Subject.GROUP)));
    }
  }

  /** kube's {@code path.IsValidPathSegmentName}, or null when the name is fine. */
  private static String pathSegmentProblem(String name) {
    if (name.equals(".") || name.equals("..")) {
      return "may not be '" + name + "'";
    }
    if (name.contains("/")) {
      return "may not contain '/'";
    }
    if (name.contains("%")) {
      return "may not contain '%'";
    }
    return null;
  }

  private static Status.Cause notSupported(String field, String value, List<String> supported) {
    return cause(Reasons.FIELD_VALUE_NOT_SUPPORTED, field, "Unsupported value: " + PolicyRule.goQuote(value)
        + ": supported values: " + supported.stream().map(PolicyRule::goQuote).collect(Collectors.joining(", ")));
  }

  private static Status.Cause cause(String reason, String field, String message) {
    return new Status.Cause(reason, message, field);
  }

  /** A string list as Go's {@code %#v} prints it. */
  private static String goSlice(List<String> values) {
    return values.stream().map(PolicyRule::goQuote).collect(Collectors.joining(", ", "[]string{", "}"));
  }

  /** A RoleRef as Go's {@code %#v} prints kube's internal type. */
  private static String goStruct(RoleRef ref) {
    return "rbac.RoleRef{APIGroup:" + PolicyRule.goQuote(ref.apiGroup()) + ", Kind:" + PolicyRule.goQuote(ref.kind())
        + ", Name:" + PolicyRule.goQuote(ref.name()) + "}";
  }
}

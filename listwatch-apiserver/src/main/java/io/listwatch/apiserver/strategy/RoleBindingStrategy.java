package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * RoleBindings and ClusterRoleBindings (rbac.authorization.k8s.io/v1), kube's strategy,
 * defaults and validation. Defaults: {@code roleRef.apiGroup}, and a User's or Group's
 * {@code apiGroup}, are rbac.authorization.k8s.io when empty. Validation
 * ({@code ValidateRoleBinding}, {@code ValidateClusterRoleBinding}): the roleRef names a Role
 * or ClusterRole (a ClusterRole only, for a ClusterRoleBinding) of the RBAC group by a valid
 * name; each subject is a named ServiceAccount (of no group, with a namespace in a
 * ClusterRoleBinding), User or Group (of the RBAC group); on update the roleRef may not change
 * ({@code cannot change roleRef}). Stateless; {@link ClusterRoleBindingStrategy} is the cluster-scoped kind's.
 */
class RoleBindingStrategy implements RestStrategy {

  static final String GROUP = "rbac.authorization.k8s.io";

  private final boolean namespaced;

  /** A RoleBinding's strategy. */
  RoleBindingStrategy() {
    this(true);
  }

  /** @param namespaced a RoleBinding (true) or a ClusterRoleBinding (false) */
  RoleBindingStrategy(boolean namespaced) {
    this.namespaced = namespaced;
  }

  /** kube's {@code SetDefaults_RoleBinding}, {@code SetDefaults_ClusterRoleBinding} and {@code SetDefaults_Subject}. */
  @Override
  public void defaults(ObjectNode binding) {
    if (binding.get("roleRef") instanceof ObjectNode ref) {
      Fields.defaultIfAbsent(ref, "apiGroup", GROUP);
    }
    for (JsonNode s : binding.path("subjects")) {
      if (s instanceof ObjectNode subject) {
        String kind = subject.path("kind").asText("");
        if (kind.equals("User") || kind.equals("Group")) {
          Fields.defaultIfAbsent(subject, "apiGroup", GROUP);
        }
      }
    }
  }

  @Override
  public void validate(ObjectNode binding, ObjectNode old, List<Status.Cause> errors) {
    JsonNode ref = binding.path("roleRef");
    String apiGroup = ref.path("apiGroup").asText("");
    if (!apiGroup.equals(GROUP)) {
      errors.add(FieldErrors.notSupported("roleRef.apiGroup", apiGroup, List.of(GROUP)));
    }
    String kind = ref.path("kind").asText("");
    List<String> kinds = namespaced ? List.of("Role", "ClusterRole") : List.of("ClusterRole");
    if (!kinds.contains(kind)) {
      errors.add(FieldErrors.notSupported("roleRef.kind", kind, kinds));
    }
    String name = ref.path("name").asText("");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required("roleRef.name", ""));
    } else {
      for (String msg : NameSyntax.isValidPathSegmentName(name)) {
        errors.add(FieldErrors.invalid("roleRef.name", name, msg));
      }
    }
    JsonNode subjects = binding.path("subjects");
    for (int i = 0; i < subjects.size(); i++) {
      subject(subjects.get(i), "subjects[" + i + "]", errors);
    }
    if (old != null && !roleRef(old).equals(roleRef(binding))) {
      errors.add(FieldErrors.invalid("roleRef", new GoLiteral(roleRef(binding)), "cannot change roleRef"));
    }
  }

  /** kube's {@code ValidateRoleBindingSubject}. */
  private void subject(JsonNode subject, String path, List<Status.Cause> errors) {
    String name = subject.path("name").asText("");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", ""));
    }
    String apiGroup = subject.path("apiGroup").asText("");
    switch (subject.path("kind").asText("")) {
      case "ServiceAccount" -> {
        if (!name.isEmpty()) {
          for (String msg : NameSyntax.isDns1123Subdomain(name)) {
            errors.add(FieldErrors.invalid(path + ".name", name, msg));
          }
        }
        if (!apiGroup.isEmpty()) {
          errors.add(FieldErrors.notSupported(path + ".apiGroup", apiGroup, List.of("")));
        }
        if (!namespaced && subject.path("namespace").asText("").isEmpty()) {
          errors.add(FieldErrors.required(path + ".namespace", ""));
        }
      }
      case "User", "Group" -> {
        if (!apiGroup.equals(GROUP)) {
          errors.add(FieldErrors.notSupported(path + ".apiGroup", apiGroup, List.of(GROUP)));
        }
      }
      default -> errors.add(FieldErrors.notSupported(path + ".kind", subject.path("kind").asText(""),
          List.of("ServiceAccount", "User", "Group")));
    }
  }

  /** The roleRef as Go's {@code %#v} prints kube's internal type. */
  private static String roleRef(JsonNode binding) {
    JsonNode ref = binding.path("roleRef");
    return "rbac.RoleRef{APIGroup:" + FieldErrors.goValue(ref.path("apiGroup").asText("")) + ", Kind:"
        + FieldErrors.goValue(ref.path("kind").asText("")) + ", Name:" + FieldErrors.goValue(ref.path("name").asText(""))
        + "}";
  }
}

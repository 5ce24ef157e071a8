package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A RoleBinding or a ClusterRoleBinding as the authorizer keeps it. Immutable.
 *
 * @param namespace "" for a ClusterRoleBinding
 */
public record Binding(String namespace, String name, RoleRef roleRef, List<Subject> subjects) {

  public Binding {
    subjects = List.copyOf(subjects);
  }

  static Binding fromJson(JsonNode obj) {
    JsonNode meta = obj.path("metadata");
    return new Binding(meta.path("namespace").asText(""), meta.path("name").asText(""),
        RoleRef.fromJson(obj.path("roleRef")), Subject.listFromJson(obj.get("subjects")));
  }

  /** kube's reason text: {@code ClusterRoleBinding "x" of ClusterRole "y" to User "z"}. */
  String describe(Subject subject) {
    String self = namespace.isEmpty() ? "ClusterRoleBinding " + PolicyRule.goQuote(name)
        : "RoleBinding " + PolicyRule.goQuote(name + "/" + namespace);
    return self + " of " + roleRef.kind() + " " + PolicyRule.goQuote(roleRef.name()) + " to "
        + subject.describe(namespace);
  }
}

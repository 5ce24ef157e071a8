package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.request.UserInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Who a binding grants its role to (rbac.authorization.k8s.io/v1 {@code Subject}): a User, a
 * Group, or a ServiceAccount. Immutable.
 *
 * @param namespace for a ServiceAccount; "" means the binding's own namespace
 */
public record Subject(String kind, String apiGroup, String name, String namespace) {

  public static final String USER = "User";
  public static final String GROUP = "Group";
  public static final String SERVICE_ACCOUNT = "ServiceAccount";

  /** The user name a service account authenticates as. */
  public static String serviceAccountUser(String namespace, String name) {
    return "system:serviceaccount:" + namespace + ":" + name;
  }

  static List<Subject> listFromJson(JsonNode subjects) {
    List<Subject> out = new ArrayList<>();
    if (subjects != null && subjects.isArray()) {
      for (JsonNode s : subjects) {
        out.add(new Subject(s.path("kind").asText(""), s.path("apiGroup").asText(""), s.path("name").asText(""),
            s.path("namespace").asText("")));
      }
    }
    return List.copyOf(out);
  }

  /** kube's {@code appliesToUser}, for a binding in {@code bindingNamespace} ("" for a ClusterRoleBinding). */
  public boolean appliesTo(UserInfo user, String bindingNamespace) {
    return switch (kind) {
      case USER -> user.name().equals(name);
      case GROUP -> user.groups().contains(name);
      case SERVICE_ACCOUNT -> {
        String ns = namespace.isEmpty() ? bindingNamespace : namespace;
        yield !ns.isEmpty() && user.name().equals(serviceAccountUser(ns, name));
      }
      default -> false;
    };
  }

  /** As kube's RBAC reasons name a subject: {@code User "alice"}, {@code ServiceAccount "name/ns"}. */
  String describe(String bindingNamespace) {
    if (kind.equals(SERVICE_ACCOUNT)) {
      return kind + " " + PolicyRule.goQuote(name + "/" + (namespace.isEmpty() ? bindingNamespace : namespace));
    }
    return kind + " " + PolicyRule.goQuote(name);
  }
}

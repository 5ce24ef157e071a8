package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.apiserver.rest.WriteAdmission;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * kube's RBAC escalation prevention: a user cannot grant permissions they do not hold.
 *
 * <ul>
 *   <li>Creating or updating a Role or ClusterRole: allowed when the user may {@code escalate}
 *       roles (clusterroles) there, or holds every rule of the new role in that namespace
 *       (cluster-wide for a ClusterRole). Setting or changing an {@code aggregationRule} needs
 *       every permission ({@code *} on everything), as kube asks.
 *   <li>Creating or updating a RoleBinding or ClusterRoleBinding: allowed when the user may
 *       {@code bind} the referenced role, or holds every rule of that role in the binding's
 *       namespace.
 *   <li>Members of system:masters may do all of it; an update that changes only
 *       ownerReferences or finalizers is not checked.
 * </ul>
 * A refusal is 403 Forbidden: {@code clusterroles.rbac.authorization.k8s.io "x" is forbidden:
 * user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not
 * currently held:} followed by one missing rule per line. Thread-safe; reads only the cache.
 */
final class EscalationCheck implements WriteAdmission {

  private static final List<PolicyRule> FULL_AUTHORITY = List.of(
      PolicyRule.resource(List.of("*"), List.of("*"), List.of("*"), List.of()),
      PolicyRule.nonResource(List.of("*"), List.of("*")));

  private final RbacKind kind;
  private final String resource;
  private final RbacAuthorizer rules;
  private final Authorizer authorizer;

  /**
   * @param rules what users hold
   * @param authorizer the server's authorizer, asked for {@code escalate} and {@code bind}
   */
  EscalationCheck(RbacKind kind, RbacAuthorizer rules, Authorizer authorizer) {
    this.kind = kind;
    this.resource = switch (kind) {
      case ROLE -> "roles";
      case CLUSTER_ROLE -> "clusterroles";
      case ROLE_BINDING -> "rolebindings";
      case CLUSTER_ROLE_BINDING -> "clusterrolebindings";
    };
    this.rules = rules;
    this.authorizer = authorizer;
  }

  @Override
  public void admit(UserInfo user, String namespace, ObjectNode object, ObjectNode old) {
    if (user == null || user.inGroup(UserInfo.MASTERS)) {
      return;
    }
    if (old != null && onlyGarbageCollectionFieldsChange(object, old)) {
      return;
    }
    String name = object.path("metadata").path("name").asText("");
    switch (kind) {
      case ROLE, CLUSTER_ROLE -> admitRole(user, namespace, object, old, name);
      case ROLE_BINDING, CLUSTER_ROLE_BINDING -> admitBinding(user, namespace, object, name);
      default -> throw new IllegalStateException();
    }
  }

  private void admitRole(UserInfo user, String namespace, ObjectNode role, ObjectNode old, String name) {
    // kube asks with the request's name: none on a create
    Attributes escalate = Attributes.resource(user, "escalate", RbacKind.GROUP, resource, "", namespace,
        old == null ? "" : name);
    if (authorizer.authorize(escalate).allowed()) {
      return;
    }
    confirmNoEscalation(user, namespace, PolicyRule.listFromJson(role.get("rules")), name);
    if (kind == RbacKind.CLUSTER_ROLE && (hasAggregationRule(role) || old != null && hasAggregationRule(old))
        && !Covers.uncovered(rules.rules(user, namespace).rules(), FULL_AUTHORITY).isEmpty()) {
      throw forbidden(name, "must have cluster-admin privileges to use the aggregationRule");
    }
  }

  private void admitBinding(UserInfo user, String namespace, ObjectNode binding, String name) {
    RoleRef ref = RoleRef.fromJson(binding.path("roleRef"));
    String refResource = switch (ref.kind()) {
      case RoleRef.ROLE -> "roles";
      case RoleRef.CLUSTER_ROLE -> "clusterroles";
      default -> null;
    };
    if (refResource != null && authorizer.authorize(Attributes.resource(user, "bind", ref.apiGroup(), refResource, "",
        namespace, ref.name())).allowed()) {
      return;
    }
    List<String> error = new ArrayList<>(1);
    var granted = rules.roleReferenceRules(ref, namespace, error);
    if (granted.isEmpty()) {
      throw forbidden(name, error.getFirst());
    }
    confirmNoEscalation(user, namespace, granted.get(), name);
  }

  /** kube's {@code ConfirmNoEscalation}. */
  private void confirmNoEscalation(UserInfo user, String namespace, List<PolicyRule> granted, String name) {
    RbacAuthorizer.ResolvedRules held = rules.rules(user, namespace);
    List<PolicyRule> missing = Covers.uncovered(held.rules(), granted);
    if (missing.isEmpty()) {
      return;
    }
    TreeSet<String> lines = new TreeSet<>();
    Covers.compact(missing).forEach(r -> lines.add(r.compactString()));
    String msg = "user " + PolicyRule.goQuote(user.name()) + " (groups=" + PolicyRule.goQuoted(user.groups())
        + ") is attempting to grant RBAC permissions not currently held:\n" + String.join("\n", lines);
    if (!held.error().isEmpty()) {
      msg = msg + "; resolution errors: [" + held.error() + "]";
    }
    throw forbidden(name, msg);
  }

  private StatusException forbidden(String name, String why) {
    String qualified = resource + "." + RbacKind.GROUP;
    String message = (name.isEmpty() ? qualified : qualified + " " + PolicyRule.goQuote(name)) + " is forbidden: " + why;
    return new StatusException(Status.failure(403, Reasons.FORBIDDEN, message,
        Status.Details.of(name.isEmpty() ? null : name, RbacKind.GROUP, resource)));
  }

  private static boolean hasAggregationRule(JsonNode role) {
    return role.path("aggregationRule").isObject();
  }

  /** kube's {@code IsOnlyMutatingGCFields}: nothing but ownerReferences and finalizers differ. */
  private static boolean onlyGarbageCollectionFieldsChange(ObjectNode object, ObjectNode old) {
    ObjectNode a = object.deepCopy();
    ObjectNode b = old.deepCopy();
    for (ObjectNode o : List.of(a, b)) {
      if (o.get("metadata") instanceof ObjectNode meta) {
        meta.remove(List.of("ownerReferences", "finalizers", "resourceVersion", "managedFields"));
      }
    }
    return a.equals(b);
  }
}

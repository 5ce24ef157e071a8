package io.listwatch.server.rbac;

/**
 * The four RBAC kinds whose writes the server checks for escalation ({@code EscalationCheck}).
 * Their defaults and validation are kube's strategies, in the core
 * ({@code io.listwatch.apiserver.strategy.RoleStrategy} and {@code RoleBindingStrategy}),
 * which the fake client runs too. Immutable.
 */
enum RbacKind {
  ROLE("Role", true), CLUSTER_ROLE("ClusterRole", false), ROLE_BINDING("RoleBinding", true),
  CLUSTER_ROLE_BINDING("ClusterRoleBinding", false);

  /** The RBAC API group. */
  static final String GROUP = "rbac.authorization.k8s.io";

  final String kind;
  final boolean namespaced;

  RbacKind(String kind, boolean namespaced) {
    this.kind = kind;
    this.namespaced = namespaced;
  }
}

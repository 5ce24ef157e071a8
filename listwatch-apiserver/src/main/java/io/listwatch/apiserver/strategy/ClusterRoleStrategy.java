package io.listwatch.apiserver.strategy;

/** ClusterRoles (rbac.authorization.k8s.io/v1): kube's rules of {@link RoleStrategy}, for the cluster-scoped kind. Stateless. */
final class ClusterRoleStrategy extends RoleStrategy {

  ClusterRoleStrategy() {
    super(false);
  }
}

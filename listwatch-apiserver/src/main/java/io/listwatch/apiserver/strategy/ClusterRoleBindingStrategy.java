package io.listwatch.apiserver.strategy;

/** ClusterRoleBindings (rbac.authorization.k8s.io/v1): kube's rules of {@link RoleBindingStrategy}, for the cluster-scoped kind. Stateless. */
final class ClusterRoleBindingStrategy extends RoleBindingStrategy {

  ClusterRoleBindingStrategy() {
    super(false);
  }
}

/**
 * Kubernetes RBAC (rbac.authorization.k8s.io/v1): the authorizer and what it needs.
 *
 * <ul>
 *   <li>{@link io.listwatch.server.rbac.Rbac}: wires it all into the server.
 *   <li>Model: {@link io.listwatch.server.rbac.PolicyRule} (with kube's rule matching),
 *       {@link io.listwatch.server.rbac.Role}, {@link io.listwatch.server.rbac.Binding},
 *       {@link io.listwatch.server.rbac.Subject}, {@link io.listwatch.server.rbac.RoleRef}.
 *   <li>{@link io.listwatch.server.rbac.PolicyCache}: roles and bindings kept current from the
 *       watch caches; {@link io.listwatch.server.rbac.RbacAuthorizer} decides from it.
 *   <li>Writes of RBAC objects: escalation
 *       prevention ({@code EscalationCheck} over {@link io.listwatch.server.rbac.Covers}); their defaults
 *       and validation are kube's strategies in the core ({@code io.listwatch.apiserver.strategy}).
 *   <li>{@link io.listwatch.server.rbac.BootstrapPolicy}: the default roles, created at start
 *       ({@code BootstrapReconciler}); {@code ClusterRoleAggregator} fills aggregated roles.
 * </ul>
 */
package io.listwatch.server.rbac;

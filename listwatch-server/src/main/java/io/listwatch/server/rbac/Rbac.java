package io.listwatch.server.rbac;

import io.listwatch.server.authz.AccessReviews;
import io.listwatch.server.authz.AuthorizationMode;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.RuleResolver;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.apiserver.strategy.BuiltinStrategies;
import io.listwatch.apiserver.strategy.RestStrategy;
import java.util.Map;

/**
 * The server's authorization, put together: the RBAC resources' escalation prevention (their
 * defaulting and validation are the core's strategies), the {@link PolicyCache} fed by their watch caches, the authorizer of
 * the chosen {@link AuthorizationMode}, the access reviews, the bootstrap policy and the
 * ClusterRole aggregation controller.
 *
 * <p>Lifecycle: {@link #install} once the routes exist (before requests are accepted);
 * {@link #start()} once the store is ready (creates the bootstrap policy, starts aggregation);
 * {@link #close()} stops the controller, idempotent. Thread-safe.
 */
public final class Rbac implements AutoCloseable {

  private static final String GROUP = RbacKind.GROUP;

  private final PolicyCache cache = new PolicyCache();
  private final RbacAuthorizer rbac = new RbacAuthorizer(cache);
  private final Authorizer authorizer;
  private final ApiRoutes routes;
  private final ResourceDefinition clusterRoles;
  private final ResourceDefinition clusterRoleBindings;
  private ClusterRoleAggregator aggregator;

  private Rbac(AuthorizationMode mode, ResourceRegistry registry, ApiRoutes routes) {
    this.authorizer = mode == AuthorizationMode.RBAC ? rbac : Authorizer.ALWAYS_ALLOW;
    this.routes = routes;
    this.clusterRoles = def(registry, "clusterroles");
    this.clusterRoleBindings = def(registry, "clusterrolebindings");
  }

  /**
   * Wires RBAC into a server whose routes and watch caches exist. {@code mode} picks the
   * authorizer; the RBAC resources, their checks and the reviews are served in either mode.
   */
  public static Rbac install(AuthorizationMode mode, ResourceRegistry registry, ApiRoutes routes,
      Map<ResourceDefinition, Cacher> cachers) {
    Rbac r = new Rbac(mode, registry, routes);
    ResourceDefinition roles = def(registry, "roles");
    ResourceDefinition roleBindings = def(registry, "rolebindings");
    cachers.get(roles).addListener(r.cache.rolesListener());
    cachers.get(r.clusterRoles).addListener(r.cache.clusterRolesListener());
    cachers.get(roleBindings).addListener(r.cache.roleBindingsListener());
    cachers.get(r.clusterRoleBindings).addListener(r.cache.clusterRoleBindingsListener());
    r.admit(routes, roles, RbacKind.ROLE);
    r.admit(routes, r.clusterRoles, RbacKind.CLUSTER_ROLE);
    r.admit(routes, roleBindings, RbacKind.ROLE_BINDING);
    r.admit(routes, r.clusterRoleBindings, RbacKind.CLUSTER_ROLE_BINDING);
    RuleResolver resolver = mode == AuthorizationMode.RBAC ? r.rbac : RuleResolver.ALWAYS_ALLOW;
    AccessReviews.register(registry, routes, r.authorizer, resolver);
    return r;
  }

  /**
   * kube's order: defaults, then the escalation check, then validation. The defaults and the
   * validation are the kind's strategy in the core (which the store runs again, harmlessly, for
   * the defaults); the escalation check needs the defaulted roleRef, so the defaults run here
   * before it.
   */
  private void admit(ApiRoutes routes, ResourceDefinition def, RbacKind kind) {
    RestStrategy strategy = BuiltinStrategies.forResource(def);
    routes.resources().admission(def, (user, namespace, object, old) -> strategy.defaults(object));
    routes.resources().admission(def, new EscalationCheck(kind, rbac, authorizer));
  }

  private static ResourceDefinition def(ResourceRegistry registry, String plural) {
    return registry.find(GROUP, "v1", plural).orElseThrow(() -> new IllegalStateException("no " + plural));
  }

  /** The authorizer of the chosen mode, for the request filters. */
  public Authorizer authorizer() {
    return authorizer;
  }

  /** Creates or completes the bootstrap policy, then starts the aggregation controller. Blocks until the policy is stored. */
  public synchronized void start() {
    BootstrapReconciler.reconcile(routes.resources().store(clusterRoles), routes.resources().store(clusterRoleBindings));
    aggregator = new ClusterRoleAggregator(cache, routes.resources().store(clusterRoles));
    aggregator.start();
  }

  @Override
  public synchronized void close() {
    if (aggregator != null) {
      aggregator.close();
      aggregator = null;
    }
  }
}

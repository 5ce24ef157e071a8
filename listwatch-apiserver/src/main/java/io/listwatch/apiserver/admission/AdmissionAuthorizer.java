package io.listwatch.apiserver.admission;

import io.listwatch.apiserver.request.UserInfo;

/**
 * What admission plug-ins ask the server's authorizer (kube's {@code authorizer.Authorizer} as
 * an admission initializer hands it to the plug-ins that want one, {@link WantsAuthorizer}):
 * may {@code user} do {@code verb} on {@code resource} named {@code name} in {@code apiGroup},
 * cluster-wide, any version. The core has no authorizer of its own: the server supplies its
 * authorizer (RBAC, with kube's privileged {@code system:masters}) through
 * {@link AdmissionChain#authorizer}; until then, and in the fake client, every question is
 * answered yes ({@link #ALLOW_ALL}).
 *
 * <p>Implementations are thread-safe and answer from memory without blocking.
 */
@FunctionalInterface
public interface AdmissionAuthorizer {

  /** Whether {@code user} may {@code verb} the {@code apiGroup}/{@code resource} named {@code name}. */
  boolean allowed(UserInfo user, String verb, String apiGroup, String resource, String name);

  /** Allows everything: the core alone, the fake client, {@code --authorization-mode=AlwaysAllow}. */
  AdmissionAuthorizer ALLOW_ALL = (user, verb, apiGroup, resource, name) -> true;
}

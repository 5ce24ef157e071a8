package io.listwatch.apiserver.admission;

import io.listwatch.apiserver.request.UserInfo;
import java.util.Optional;

/**
 * What the core asks the server's authorizer beyond the request's own check (kube's
 * {@code authorizer.Authorizer} as an admission initializer hands it to the plug-ins that want
 * one, {@link WantsAuthorizer}, and as the delete handler asks it for an unsafe delete): may
 * {@code user} do {@code verb} on {@code resource} named {@code name} in {@code apiGroup}, any
 * version. The core has no authorizer of its own: the server supplies its authorizer (RBAC,
 * with kube's privileged {@code system:masters}) through
 * {@code ServedResources#authorizer}; until then, and in the fake client, every question is
 * answered yes ({@link #ALLOW_ALL}).
 *
 * <p>Implementations are thread-safe and answer from memory without blocking.
 */
@FunctionalInterface
public interface AdmissionAuthorizer {

  /**
   * Why {@code user} may not {@code verb} the {@code apiGroup}/{@code resource} named
   * {@code name} in {@code namespace} ("" cluster-wide): the authorizer's reason, often empty;
   * no value when the user may.
   */
  Optional<String> denial(UserInfo user, String verb, String apiGroup, String resource, String namespace,
      String name);

  /** Whether {@code user} may {@code verb} the {@code apiGroup}/{@code resource} named {@code name}, cluster-wide. */
  default boolean allowed(UserInfo user, String verb, String apiGroup, String resource, String name) {
    return denial(user, verb, apiGroup, resource, "", name).isEmpty();
  }

  /** Allows everything: the core alone, the fake client, {@code --authorization-mode=AlwaysAllow}. */
  AdmissionAuthorizer ALLOW_ALL = (user, verb, apiGroup, resource, namespace, name) -> Optional.empty();
}

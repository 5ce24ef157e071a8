package io.listwatch.server.authz;

import io.listwatch.apiserver.admission.AdmissionAuthorizer;
import io.listwatch.apiserver.request.UserInfo;

/**
 * The server's authorizer as the admission plug-ins ask it (kube's admission initializer hands
 * them the same authorizer the request filters use): {@code system:masters} first, as kube's
 * privileged-groups authorizer, then {@code authorizer} with a resource request of any version.
 * Stateless.
 */
public final class AdmissionAuthorization {

  private AdmissionAuthorization() {
  }

  /** {@code authorizer} for admission plug-ins. */
  public static AdmissionAuthorizer of(Authorizer authorizer) {
    return (user, verb, apiGroup, resource, namespace, name) -> {
      if (user.inGroup(UserInfo.MASTERS)) {
        return java.util.Optional.empty();
      }
      Decision d = authorizer.authorize(Attributes.resource(user, verb, apiGroup, resource, "", namespace, name));
      return d.allowed() ? java.util.Optional.empty() : java.util.Optional.of(d.reason());
    };
  }
}

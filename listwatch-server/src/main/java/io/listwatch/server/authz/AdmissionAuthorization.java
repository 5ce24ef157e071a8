package io.listwatch.server.authz;

import io.listwatch.apiserver.admission.AdmissionAuthorizer;
import io.listwatch.apiserver.request.UserInfo;

/**
 * The server's authorizer as the admission plug-ins ask it (kube's admission initializer hands
 * them the same authorizer the request filters use): {@code system:masters} first, as kube's
 * privileged-groups authorizer, then {@code authorizer} with a resource request of any version,
 * cluster-wide. Stateless.
 */
public final class AdmissionAuthorization {

  private AdmissionAuthorization() {
  }

  /** {@code authorizer} for admission plug-ins. */
  public static AdmissionAuthorizer of(Authorizer authorizer) {
    return (user, verb, apiGroup, resource, name) -> user.inGroup(UserInfo.MASTERS)
        || authorizer.authorize(Attributes.resource(user, verb, apiGroup, resource, "", "", name)).allowed();
  }
}

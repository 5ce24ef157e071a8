package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.ApiRequest;
import java.util.Optional;

/**
 * Tells who made a request from its credentials (kube's {@code authenticator.Request}). Each
 * implementation understands one kind of credential: client certificates, static tokens,
 * service-account tokens. Implementations are thread-safe and called on event loops, so they
 * must not block (lookups go to in-memory caches).
 */
@FunctionalInterface
public interface Authenticator {

  /**
   * Returns the user the request's credentials name, or empty when the request carries no
   * credentials of the kind this authenticator understands (the next one is asked).
   *
   * @throws io.listwatch.api.StatusException 401 Unauthorized when the request carries
   *     credentials of this kind that are not valid (unknown, expired, forged, revoked)
   */
  Optional<UserInfo> authenticate(ApiRequest request);
}

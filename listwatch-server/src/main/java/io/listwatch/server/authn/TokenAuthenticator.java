package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Tells who a bearer token names (kube's {@code authenticator.Token}): static tokens from a
 * token file, service-account JWTs. {@link BearerTokenAuthenticator} asks each in order for
 * requests, and TokenReview asks the same ones. Implementations are thread-safe and do not
 * block: they are called on event loops.
 */
@FunctionalInterface
public interface TokenAuthenticator {

  /**
   * Authenticates {@code token} for one of {@code audiences}.
   *
   * @return the user, or empty when the token is not of this authenticator's kind
   * @throws AuthenticationException when the token is of this kind but not valid
   */
  Optional<Response> authenticateToken(String token, Set<String> audiences);

  /**
   * A token's user and the audiences it is valid for.
   *
   * @param audiences the audiences among those asked for that the token is valid for; empty
   *     for tokens that carry no audience (static tokens), which are valid for the server's own
   *     API audiences
   */
  record Response(UserInfo user, List<String> audiences) {
    public Response {
      Objects.requireNonNull(user);
      audiences = List.copyOf(audiences);
    }
  }
}

package io.listwatch.server.authn;

/**
 * A credential of an authenticator's kind that is not valid: unknown, expired, forged, for
 * another audience, or for a service account that no longer exists. The message says why, for
 * TokenReview's {@code status.error} and debug logs; it never carries the credential itself.
 * A request that fails this way gets kube's plain 401 Unauthorized, whatever the reason.
 */
public final class AuthenticationException extends RuntimeException {

  public AuthenticationException(String message) {
    super(message, null, false, false);
  }
}

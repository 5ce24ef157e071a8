package io.listwatch.server.authz;

/**
 * Decides whether a user may do what a request asks (kube's {@code authorizer.Authorizer}).
 * Implementations are thread-safe and called on event loops for every request, watches
 * included, so they answer from memory and never block.
 */
@FunctionalInterface
public interface Authorizer {

  Decision authorize(Attributes attributes);

  /** {@code --authorization-mode=AlwaysAllow}. */
  Authorizer ALWAYS_ALLOW = a -> Decision.allow("");
}

package io.listwatch.apiserver.admission;

/**
 * A plug-in that asks the server's authorizer (kube's {@code initializer.WantsAuthorizer}):
 * {@link AdmissionChain#authorizer} gives it the server's once, before the server serves.
 * Until then it uses {@link AdmissionAuthorizer#ALLOW_ALL}.
 */
public interface WantsAuthorizer {

  /** Sets the authorizer the plug-in asks from now on. */
  void authorizer(AdmissionAuthorizer authorizer);
}

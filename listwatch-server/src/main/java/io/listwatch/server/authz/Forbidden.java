package io.listwatch.server.authz;

import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;

/** kube's 403 Forbidden Status for a denied request, with kube's message text. Stateless. */
public final class Forbidden {

  private Forbidden() {
  }

  /**
   * {@code pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the
   * namespace "default"}, or {@code forbidden: User "alice" cannot get path "/metrics"}; a
   * non-empty reason is appended after {@code ": "}.
   */
  public static StatusException of(Attributes a, String reason) {
    String user = "User \"" + a.user().name() + "\"";
    String message;
    Status.Details details;
    if (a.resourceRequest()) {
      String resource = a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
      String qualified = a.apiGroup().isEmpty() ? a.resource() : a.resource() + "." + a.apiGroup();
      String subject = a.name().isEmpty() ? qualified : qualified + " \"" + a.name() + "\"";
      message = subject + " is forbidden: " + user + " cannot " + a.verb() + " resource \"" + resource
          + "\" in API group \"" + a.apiGroup() + "\""
          + (a.namespace().isEmpty() ? " at the cluster scope" : " in the namespace \"" + a.namespace() + "\"");
      details = Status.Details.of(a.name().isEmpty() ? null : a.name(), a.apiGroup().isEmpty() ? null : a.apiGroup(),
          a.resource());
    } else {
      message = "forbidden: " + user + " cannot " + a.verb() + " path \"" + a.path() + "\"";
      details = null;
    }
    if (reason != null && !reason.isEmpty()) {
      message = message + ": " + reason;
    }
    return new StatusException(Status.failure(403, Reasons.FORBIDDEN, message, details));
  }
}

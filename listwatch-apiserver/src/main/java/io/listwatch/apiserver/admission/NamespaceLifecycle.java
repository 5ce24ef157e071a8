package io.listwatch.apiserver.admission;

import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * kube's {@code NamespaceLifecycle} admission plug-in: an object is created only in a namespace
 * that exists (404 NotFound naming the namespace) and is not being deleted (403 Forbidden with
 * the cause {@code NamespaceTerminating}). Updates and deletes of what a namespace holds go
 * through: a terminating namespace empties itself by them. Validating only. Thread-safe.
 */
public final class NamespaceLifecycle implements AdmissionPlugin {

  /** A namespace as this plug-in sees it. */
  public enum NamespaceState {
    MISSING, ACTIVE, TERMINATING
  }

  private final Function<String, CompletableFuture<NamespaceState>> namespaces;

  /**
   * @param namespaces the state of a namespace; it must see a namespace created a moment ago
   *     (kube's plug-in falls back to a live read when its informer has not seen it yet)
   */
  public NamespaceLifecycle(Function<String, CompletableFuture<NamespaceState>> namespaces) {
    this.namespaces = namespaces;
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (a.operation() != AdmissionAttributes.Operation.CREATE || !a.resource().namespaced()
        || a.namespace().isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return namespaces.apply(a.namespace()).thenAccept(state -> {
      switch (state) {
        case MISSING -> throw StatusException.notFound("", "namespaces", a.namespace());
        case TERMINATING -> throw terminating(a);
        case ACTIVE -> {
        }
      }
    });
  }

  private static StatusException terminating(AdmissionAttributes a) {
    Status forbidden = StatusException.forbidden(a.resource().group(), a.resource().plural(), a.name(),
        "unable to create new content in namespace " + a.namespace() + " because it is being terminated").status();
    Status.Details details = forbidden.details().withCauses(List.of(new Status.Cause("NamespaceTerminating",
        "namespace " + a.namespace() + " is being terminated", "metadata.namespace")));
    return new StatusException(Status.failure(forbidden.code(), forbidden.reason(), forbidden.message(), details));
  }
}

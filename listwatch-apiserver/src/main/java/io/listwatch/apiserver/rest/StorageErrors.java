package io.listwatch.apiserver.rest;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.storage.StorageException;
import java.util.concurrent.CompletionException;

/** Maps storage errors to kube Status, in this one place. Stateless. */
final class StorageErrors {

  private StorageErrors() {
  }

  static RuntimeException toStatus(Throwable error, ResourceDefinition def, String name) {
    Throwable e = error;
    while (e instanceof CompletionException && e.getCause() != null) {
      e = e.getCause();
    }
    if (e instanceof StatusException se) {
      return se;
    }
    if (!(e instanceof StorageException se)) {
      return e instanceof RuntimeException r ? r : new CompletionException(e);
    }
    return switch (se.code()) {
      case KEY_NOT_FOUND -> StatusException.notFound(def.group(), def.plural(), name);
      case KEY_EXISTS -> StatusException.alreadyExists(def.group(), def.plural(), name);
      case CONFLICT -> StatusException.conflictModified(def.group(), def.plural(), name);
      case COMPACTED -> StatusException.expired("too old resource version: " + se.getMessage());
      case FUTURE_REVISION -> StatusException.tooLargeResourceVersion(0, se.currentRevision());
      case TOO_LARGE -> StatusException.tooLarge(se.getMessage());
      case INVALID_KEY -> StatusException.badRequest(se.getMessage());
      case UNAVAILABLE -> StatusException.unavailable(se.getMessage());
    };
  }
}

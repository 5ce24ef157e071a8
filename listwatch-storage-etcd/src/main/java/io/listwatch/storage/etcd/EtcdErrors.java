package io.listwatch.storage.etcd;

import io.etcd.jetcd.common.exception.CompactedException;
import io.listwatch.storage.StorageException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Turns what jetcd reports into the storage layer's {@link StorageException} codes: etcd's
 * "required revision has been compacted" and "required revision is a future revision" (gRPC
 * OUT_OF_RANGE), "request is too large", and everything else (no leader, connection refused,
 * a timeout) as {@code UNAVAILABLE}. jetcd reports etcd's errors as gRPC status exceptions whose
 * message is etcd's, so the message is what tells them apart. Stateless.
 */
final class EtcdErrors {

  private EtcdErrors() {
  }

  /**
   * The storage error for {@code failure} of a request at {@code revision} (0: current); a
   * compacted error also teaches {@code storage} how far history is gone.
   */
  static StorageException translate(Throwable failure, long revision, EtcdStorage storage) {
    Throwable e = unwrap(failure);
    if (e instanceof StorageException se) {
      return se;
    }
    if (e instanceof CompactedException ce) {
      storage.compactedAtLeast(ce.getCompactedRevision());
      return StorageException.compacted(revision, ce.getCompactedRevision());
    }
    String message = String.valueOf(e.getMessage());
    if (message.contains("required revision has been compacted")) {
      // etcd does not say how far it compacted; it is past the requested revision
      storage.compactedAtLeast(revision + 1);
      return StorageException.compacted(revision, storage.compactedRevision());
    }
    if (message.contains("required revision is a future revision")) {
      return StorageException.futureRevision(revision, storage.currentRevision());
    }
    if (message.contains("request is too large")) {
      return StorageException.tooLarge(null, "etcd refused the request as too large: " + message);
    }
    if (e instanceof TimeoutException) {
      return StorageException.unavailable("etcd did not answer within " + storage.requestTimeout()
          + "; a write may still have been applied: read it to find out", e);
    }
    return StorageException.unavailable("etcd request failed: " + describe(e), e);
  }

  /** A one-line account of a failure, for messages. */
  static String describe(Throwable failure) {
    Throwable e = unwrap(failure);
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  private static Throwable unwrap(Throwable t) {
    Throwable e = t;
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}

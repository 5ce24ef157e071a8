package io.listwatch.storage;

import java.util.Optional;

/**
 * The one error type of the storage layer. Callers branch on {@link #code()}; the API
 * server maps each code to an HTTP Status in one place.
 */
public final class StorageException extends RuntimeException {

  /** What went wrong. */
  public enum Code {
    /** The key does not exist (update or delete of a missing key). */
    KEY_NOT_FOUND,
    /** A create found the key already present. */
    KEY_EXISTS,
    /** The key's mod revision is not the one the caller expected. */
    CONFLICT,
    /** The requested revision is older than the retained history. */
    COMPACTED,
    /** The requested revision is newer than the store's current revision. */
    FUTURE_REVISION,
    /** A value or key is larger than the configured limit. */
    TOO_LARGE,
    /** A key is empty, not well-formed UTF-8, or contains a NUL character. */
    INVALID_KEY,
    /**
     * The store is closed, its disk failed, or (for a store across a network) it did not
     * answer. Nothing was written, except that a networked store may have applied a write it
     * stopped answering about (see {@link Storage}).
     */
    UNAVAILABLE
  }

  private final Code code;
  private final String key;
  private final transient KeyValue current;
  private final long compactedRevision;
  private final long currentRevision;

  private StorageException(Code code, String key, String message, KeyValue current,
      long compactedRevision, long currentRevision, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.key = key;
    this.current = current;
    this.compactedRevision = compactedRevision;
    this.currentRevision = currentRevision;
  }

  public static StorageException keyNotFound(String key) {
    return new StorageException(Code.KEY_NOT_FOUND, key, "key not found: " + key, null, 0, 0, null);
  }

  public static StorageException keyExists(String key, KeyValue current) {
    return new StorageException(Code.KEY_EXISTS, key, "key exists: " + key, current, 0, 0, null);
  }

  public static StorageException conflict(String key, long expectedModRevision, KeyValue current) {
    return new StorageException(Code.CONFLICT, key, "conflict on " + key + ": expected mod revision "
        + expectedModRevision + ", found " + current.modRevision(), current, 0, 0, null);
  }

  public static StorageException compacted(long requested, long compactedRevision) {
    return new StorageException(Code.COMPACTED, null, "revision " + requested
        + " has been compacted; the oldest readable revision is " + compactedRevision, null,
        compactedRevision, 0, null);
  }

  public static StorageException futureRevision(long requested, long currentRevision) {
    return new StorageException(Code.FUTURE_REVISION, null, "revision " + requested
        + " is newer than the current revision " + currentRevision, null, 0, currentRevision, null);
  }

  public static StorageException tooLarge(String key, String what, long size, long limit) {
    return new StorageException(Code.TOO_LARGE, key, what + " is " + size
        + " bytes, over the limit of " + limit + " bytes", null, 0, 0, null);
  }

  /** A request the store refused as too large, where only the store knows its size and limit. */
  public static StorageException tooLarge(String key, String message) {
    return new StorageException(Code.TOO_LARGE, key, message, null, 0, 0, null);
  }

  public static StorageException invalidKey(String key, String reason) {
    return new StorageException(Code.INVALID_KEY, key, "invalid key: " + reason, null, 0, 0, null);
  }

  public static StorageException unavailable(String message, Throwable cause) {
    return new StorageException(Code.UNAVAILABLE, null, message, null, 0, 0, cause);
  }

  public Code code() {
    return code;
  }

  /** The key the operation was about, when there is one. */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }

  /**
   * The key's current state, for {@code CONFLICT} and {@code KEY_EXISTS}: lets a caller retry
   * a guarded update without reading the key again (kube's GuaranteedUpdate does this).
   */
  public Optional<KeyValue> current() {
    return Optional.ofNullable(current);
  }

  /** For {@code COMPACTED}: the oldest revision still readable. */
  public long compactedRevision() {
    return compactedRevision;
  }

  /** For {@code FUTURE_REVISION}: the store's revision when the request was refused. */
  public long currentRevision() {
    return currentRevision;
  }
}

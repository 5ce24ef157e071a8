package io.listwatch.apiserver.cacher;

/**
 * A stored value the cache cannot decode: not a JSON object, or beyond
 * {@link io.listwatch.api.JsonLimits}. The server refuses such objects on write, so one can
 * only come from data written before that check or by another program. The cacher skips it
 * with an error and keeps serving everything else, as kube's cacher skips an object it cannot
 * decode; a GET of it answers 500 naming its key, in kube's words for a corrupt object
 * ({@link #describe}), and an administrator may remove it with kube's unsafe delete.
 */
public final class UnreadableObjectException extends RuntimeException {

  private final String key;

  UnreadableObjectException(String key, long revision, Throwable cause) {
    super(describe(key, revision, cause.getMessage()), cause);
    this.key = key;
  }

  /**
   * kube's message for a corrupt object ({@code storage.NewCorruptObjError} as its
   * {@code StorageError} prints), with the stored revision where kube prints 0:
   * {@code StorageError: corrupt object, Code: 7, Key: /registry/..., ResourceVersion: 42,
   * AdditionalErrorMsg: why}.
   */
  public static String describe(String key, long revision, String why) {
    return "StorageError: corrupt object, Code: 7, Key: " + key + ", ResourceVersion: " + revision
        + ", AdditionalErrorMsg: " + why;
  }

  /** The storage key of the object. */
  public String key() {
    return key;
  }
}

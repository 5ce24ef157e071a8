package io.listwatch.apiserver.cacher;

/**
 * A stored value the cache cannot decode: not a JSON object, or beyond
 * {@link io.listwatch.api.JsonLimits}. The server refuses such objects on write, so one can
 * only come from data written before that check or by another program. The cacher skips it
 * with an error and keeps serving everything else, as kube's cacher skips an object it cannot
 * decode; a GET of it answers 500 naming its key.
 */
public final class UnreadableObjectException extends RuntimeException {

  private final String key;

  UnreadableObjectException(String key, long revision, Throwable cause) {
    super("stored object at " + key + " (revision " + revision + ") cannot be read: " + cause.getMessage(), cause);
    this.key = key;
  }

  /** The storage key of the object. */
  public String key() {
    return key;
  }
}

package io.listwatch.client.cache;

/**
 * Told when a reflector's list or watch fails (client-go's {@code WatchErrorHandler}). The
 * reflector retries by itself; this is for logging, metrics or giving up (by closing the
 * informer). Called on the reflector's thread: must not block.
 */
@FunctionalInterface
public interface WatchErrorHandler {

  /** {@code reflectorName} names the reflector, e.g. {@code Reflector[pods]}. */
  void onError(String reflectorName, Throwable error);
}

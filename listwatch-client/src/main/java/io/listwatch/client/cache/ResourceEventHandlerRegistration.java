package io.listwatch.client.cache;

/**
 * The handle {@link SharedInformer#addEventHandler} returns: lets the caller ask whether
 * this handler has been sent the whole initial state, and remove the handler.
 * Thread-safe.
 */
public interface ResourceEventHandlerRegistration {

  /**
   * True once the informer has synced and this handler has been delivered every
   * notification of the initial state (for a handler added later, the whole replay).
   */
  boolean hasSynced();
}

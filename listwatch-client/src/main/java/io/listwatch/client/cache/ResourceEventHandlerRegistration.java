package io.listwatch.client.cache;

/**
 * The handle {@link SharedInformer#addEventHandler} returns: lets the caller ask whether
 * this handler has been sent the whole initial state, watch how it keeps up, and remove it
 * ({@link SharedInformer#removeEventHandler}). Thread-safe.
 */
public interface ResourceEventHandlerRegistration {

  /**
   * True once the informer has synced and this handler has returned from every
   * notification of the initial state: the first list's adds for a handler added before the
   * informer synced, the whole replay of the cache for a handler added later. Controllers
   * wait for this (client-go's {@code registration.HasSynced}) rather than for the
   * informer's {@link SharedInformer#hasSynced()}, which says nothing about what this
   * handler has seen.
   */
  boolean hasSynced();

  /** A snapshot of this handler's backlog and timings. */
  HandlerMetrics metrics();
}

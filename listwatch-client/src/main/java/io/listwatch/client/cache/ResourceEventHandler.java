package io.listwatch.client.cache;

/**
 * Receives notifications from a {@link SharedInformer} (client-go's
 * {@code ResourceEventHandler}); the contract is written on {@link SharedIndexInformer}.
 *
 * <p>Calls to one handler are sequential, never concurrent, on the handler's own thread
 * ({@code informer-<name>-handler-<n>}). For each object they come in the order the informer
 * saw its changes, each after the informer's cache was updated for it. Objects are shared
 * with the informer's cache and other handlers: never mutate them; copy first. A handler
 * that throws is logged and keeps receiving events. A handler that blocks delays only
 * itself; when the informer closes, its thread is interrupted.
 *
 * @param <T> the object type
 */
public interface ResourceEventHandler<T> {

  /**
   * An object appeared. {@code isInInitialList} is true when it came from the list that
   * first synced the informer (or, for a handler added later, the replay of the cache).
   */
  default void onAdd(T object, boolean isInInitialList) {}

  /**
   * An object changed. Also called with two states of the same resourceVersion (often the
   * same instance) on a resync, and for an object a relist found unchanged, both only when
   * this handler is due for a resync; a relist that found the object changed is an update
   * for every handler.
   */
  default void onUpdate(T oldObject, T newObject) {}

  /**
   * An object went away. {@code deletedFinalStateUnknown} is true when the delete was
   * inferred by a relist ({@code object} is then the last state seen, possibly stale).
   */
  default void onDelete(T object, boolean deletedFinalStateUnknown) {}
}

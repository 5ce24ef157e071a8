package io.listwatch.client.cache;

/**
 * Receives notifications from a {@link SharedInformer} (client-go's
 * {@code ResourceEventHandler}).
 *
 * <p>Calls to one handler are sequential, never concurrent, on a thread of the informer's
 * (its own, per handler). For each object they come in the order the informer saw its
 * changes. Objects are shared with the informer's cache and other handlers: never mutate
 * them; copy first. A handler that throws is logged and keeps receiving events.
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
   * An object changed; also called with {@code oldObject == newObject}-like pairs on resync
   * and for objects a relist confirmed.
   */
  default void onUpdate(T oldObject, T newObject) {}

  /**
   * An object went away. {@code deletedFinalStateUnknown} is true when the delete was
   * inferred by a relist ({@code object} is then the last state seen, possibly stale).
   */
  default void onDelete(T object, boolean deletedFinalStateUnknown) {}
}

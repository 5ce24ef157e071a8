package io.listwatch.client.cache;

import java.util.Objects;

/**
 * One call to make on a {@link ResourceEventHandler}, queued in a {@link ProcessorListener}
 * (client-go's {@code addNotification}, {@code updateNotification},
 * {@code deleteNotification}). Immutable; the objects inside are shared with the cache.
 *
 * @param <T> the object type
 */
sealed interface Notification<T> {

  /** Makes the call on {@code handler}. */
  void deliverTo(ResourceEventHandler<T> handler);

  /** {@link ResourceEventHandler#onAdd}. */
  record Add<T>(T object, boolean isInInitialList) implements Notification<T> {
    public Add {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public void deliverTo(ResourceEventHandler<T> handler) {
      handler.onAdd(object, isInInitialList);
    }
  }

  /** {@link ResourceEventHandler#onUpdate}. */
  record Update<T>(T oldObject, T newObject) implements Notification<T> {
    public Update {
      Objects.requireNonNull(oldObject, "oldObject");
      Objects.requireNonNull(newObject, "newObject");
    }

    @Override
    public void deliverTo(ResourceEventHandler<T> handler) {
      handler.onUpdate(oldObject, newObject);
    }
  }

  /** {@link ResourceEventHandler#onDelete}. */
  record Delete<T>(T object, boolean deletedFinalStateUnknown) implements Notification<T> {
    public Delete {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public void deliverTo(ResourceEventHandler<T> handler) {
      handler.onDelete(object, deletedFinalStateUnknown);
    }
  }
}

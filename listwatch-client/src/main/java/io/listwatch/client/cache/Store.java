package io.listwatch.client.cache;

import java.util.List;
import java.util.Optional;

/**
 * A keyed collection of objects (client-go's {@code cache.Store}).
 *
 * <p>Objects handed to and returned from a store are shared, not copied: callers must not
 * mutate them. Implementations state their own thread-safety.
 *
 * @param <T> the object type
 */
public interface Store<T> {

  /** Inserts or replaces the object under its key. */
  void add(T object);

  /** Same as {@link #add}: stores the new version under its key. */
  void update(T object);

  /** Removes the object's key (no-op if absent). */
  void delete(T object);

  /** Every object, in no particular order. */
  List<T> list();

  /** Every key, in no particular order. */
  List<String> listKeys();

  /** The stored object with the same key as {@code object}. */
  Optional<T> get(T object);

  /** The stored object under {@code key}. */
  Optional<T> getByKey(String key);

  /**
   * Replaces the whole content with {@code objects}, which the caller no longer mutates.
   * {@code resourceVersion} is the list's resourceVersion (kept by some implementations).
   */
  void replace(List<T> objects, String resourceVersion);

  /** Asks the store to resync (meaningful for queues; a plain store does nothing). */
  void resync();
}

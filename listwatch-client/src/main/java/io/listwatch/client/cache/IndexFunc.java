package io.listwatch.client.cache;

import java.util.List;

/**
 * Computes the index values of an object for one named index (client-go's
 * {@code IndexFunc}). Must be pure and fast: it runs under the store's write lock.
 *
 * @param <T> the object type
 */
@FunctionalInterface
public interface IndexFunc<T> {

  /** The object's values in this index; empty if it is not indexed. */
  List<String> values(T object);
}

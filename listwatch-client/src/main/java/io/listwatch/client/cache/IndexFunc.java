package io.listwatch.client.cache;

import io.listwatch.client.MetaAccessor;
import java.util.List;
import java.util.Objects;

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

  /**
   * client-go's {@code MetaNamespaceIndexFunc}, installed as {@link Indexer#NAMESPACE_INDEX}:
   * the object's namespace, {@code ""} for cluster-scoped objects.
   */
  static <T> IndexFunc<T> namespace(MetaAccessor<T> accessor) {
    Objects.requireNonNull(accessor, "accessor");
    return object -> List.of(accessor.namespace(object));
  }
}

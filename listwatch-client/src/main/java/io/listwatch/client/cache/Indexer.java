package io.listwatch.client.cache;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link Store} with named indexes (client-go's {@code cache.Indexer}).
 *
 * <p>Thread-safe: readers see each write whole, and indexes always agree with the objects.
 * Returned lists are snapshots; the objects in them are shared and must not be mutated.
 *
 * @param <T> the object type
 */
public interface Indexer<T> extends Store<T> {

  /** The name of the namespace index informers install by default. */
  String NAMESPACE_INDEX = "namespace";

  /** Objects that share any value of {@code indexName} with {@code object}. */
  List<T> index(String indexName, T object);

  /** Keys of the objects whose {@code indexName} values include {@code value}. */
  List<String> indexKeys(String indexName, String value);

  /** Every value of {@code indexName} that some object has. */
  List<String> listIndexFuncValues(String indexName);

  /** Objects whose {@code indexName} values include {@code value}. */
  List<T> byIndex(String indexName, String value);

  /** The index functions by name. */
  Map<String, IndexFunc<T>> indexers();

  /**
   * Adds indexes, building them over the current content.
   *
   * @throws IllegalArgumentException if a name is already in use
   */
  void addIndexers(Map<String, IndexFunc<T>> newIndexers);

  /** Names of the indexes. */
  default Set<String> indexNames() {
    return indexers().keySet();
  }
}

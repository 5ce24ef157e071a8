package io.listwatch.client.cache;

import java.util.Map;

/**
 * A {@link SharedInformer} whose store is an {@link Indexer}.
 *
 * <p>TODO(informer): the contract Javadoc (consistency, per-object ordering, sequential
 * calls per handler, objects not to be mutated, threads).
 *
 * @param <T> the object type
 */
public interface SharedIndexInformer<T> extends SharedInformer<T> {

  /** Adds indexes; allowed before and after start. */
  void addIndexers(Map<String, IndexFunc<T>> indexers);

  /** The informer's indexer: read from it, never write to it. */
  Indexer<T> getIndexer();
}

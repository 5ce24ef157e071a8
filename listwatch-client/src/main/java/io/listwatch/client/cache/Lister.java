package io.listwatch.client.cache;

import io.listwatch.api.LabelSelector;
import io.listwatch.client.MetaAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads an informer's cache by name and labels (client-go's {@code GenericLister}).
 *
 * <p>The indexer must key objects with {@link KeyFunc#metaNamespace} ({@code namespace/name},
 * or {@code name} for cluster-scoped objects), as informers do. Use {@link #get} for
 * cluster-scoped objects and {@link #namespace} for namespaced ones.
 *
 * <p>Thread-safe (as the indexer is). Lists are snapshots; the objects in them are the
 * cache's own and must not be mutated.
 *
 * @param <T> the object type
 */
public final class Lister<T> {

  private final Indexer<T> indexer;
  private final MetaAccessor<T> meta;

  /**
   * @param indexer the cache, keyed by {@link KeyFunc#metaNamespace}
   * @param meta reads the objects' labels and namespace
   */
  public Lister(Indexer<T> indexer, MetaAccessor<T> meta) {
    this.indexer = Objects.requireNonNull(indexer, "indexer");
    this.meta = Objects.requireNonNull(meta, "meta");
  }

  /** The cluster-scoped object named {@code name}. */
  public Optional<T> get(String name) {
    return indexer.getByKey(name);
  }

  /** Every object, of every namespace, whose labels match {@code selector}. */
  public List<T> list(LabelSelector selector) {
    return filter(indexer.list(), selector);
  }

  /**
   * A lister of the objects in {@code namespace}.
   *
   * @throws IllegalArgumentException if {@code namespace} is empty (use {@link #list} for
   *     every namespace)
   */
  public NamespaceLister<T> namespace(String namespace) {
    return new NamespaceLister<>(this, namespace);
  }

  Indexer<T> indexer() {
    return indexer;
  }

  MetaAccessor<T> meta() {
    return meta;
  }

  List<T> filter(List<T> objects, LabelSelector selector) {
    Objects.requireNonNull(selector, "selector");
    if (selector.isEverything()) {
      return objects;
    }
    List<T> out = new ArrayList<>();
    for (T object : objects) {
      if (selector.matches(meta.labels(object))) {
        out.add(object);
      }
    }
    return out;
  }
}

package io.listwatch.client.cache;

import io.listwatch.api.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the objects of one namespace from an informer's cache (client-go's
 * {@code GenericNamespaceLister}). Obtained from {@link Lister#namespace}.
 *
 * <p>{@link #list} uses the indexer's {@link Indexer#NAMESPACE_INDEX} when it has one, and
 * scans every object otherwise.
 *
 * <p>Thread-safe (as the indexer is). Lists are snapshots; the objects in them are the
 * cache's own and must not be mutated.
 *
 * @param <T> the object type
 */
public final class NamespaceLister<T> {

  private final Lister<T> lister;
  private final String namespace;

  NamespaceLister(Lister<T> lister, String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException(
          "namespace must not be empty; use Lister.list to list every namespace");
    }
    this.lister = lister;
    this.namespace = namespace;
  }

  /** The namespace this lister reads. */
  public String namespace() {
    return namespace;
  }

  /** The object named {@code name} in this namespace. */
  public Optional<T> get(String name) {
    return lister.indexer().getByKey(namespace + "/" + name);
  }

  /** The objects of this namespace whose labels match {@code selector}. */
  public List<T> list(LabelSelector selector) {
    Indexer<T> indexer = lister.indexer();
    if (indexer.indexers().containsKey(Indexer.NAMESPACE_INDEX)) {
      return lister.filter(indexer.byIndex(Indexer.NAMESPACE_INDEX, namespace), selector);
    }
    List<T> inNamespace = new ArrayList<>();
    for (T object : indexer.list()) {
      if (namespace.equals(lister.meta().namespace(object))) {
        inNamespace.add(object);
      }
    }
    return lister.filter(inNamespace, selector);
  }
}

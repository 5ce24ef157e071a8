package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What an admission plug-in reads of other objects (kube's plug-ins read them through informer
 * listers): the watch cache's current objects of a built-in resource, by group and plural. A
 * read never waits for storage once the server has started; an object written a moment ago may
 * not be seen yet, as with kube's listers.
 *
 * <p>Objects handed out are fresh copies: the caller may change them. Implementations are
 * thread-safe.
 */
public interface Listers {

  /** Reads nothing: every object is missing. For tests and chains without readers. */
  Listers NONE = new Listers() {
    @Override
    public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
      return Optional.empty();
    }

    @Override
    public List<ObjectNode> list(String group, String plural, String namespace) {
      return List.of();
    }
  };

  /**
   * The object {@code namespace}/{@code name} ({@code namespace} "" for a cluster-scoped
   * resource) of {@code group}/{@code plural}, or empty when it does not exist or the resource is
   * not served.
   */
  Optional<ObjectNode> get(String group, String plural, String namespace, String name);

  /** Every object of {@code group}/{@code plural} in {@code namespace} ("" for all), by key. */
  List<ObjectNode> list(String group, String plural, String namespace);

  /**
   * The object as storage holds it now: what kube's plug-ins fall back to (a live GET) when
   * their lister has not seen an object yet. By default {@link #get}.
   */
  default CompletableFuture<Optional<ObjectNode>> getLive(String group, String plural, String namespace,
      String name) {
    return CompletableFuture.completedFuture(get(group, plural, namespace, name));
  }
}

package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What an admission plug-in reads of other objects (kube's plug-ins read them through informer
 * listers, and find the resource of a kind with a RESTMapper): the watch cache's current objects
 * of a built-in resource, by group and plural, or of any resource served now, built-in or
 * custom, by its definition ({@link #resource} finds it by kind). A read never waits for storage
 * once the server has started (a custom resource's cache, once its definition is served); an
 * object written a moment ago may not be seen yet, as with kube's listers.
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
   * The resource serving {@code group}/{@code version}/{@code kind} now, built-in or custom: kube's
   * RESTMapper as its policy plug-ins use it for a {@code paramKind}. Empty when nothing serves
   * the kind, such as a custom resource whose definition does not exist (yet) or does not serve
   * that version. By default the built-in resources.
   */
  default Optional<ResourceDefinition> resource(String group, String version, String kind) {
    return ResourceRegistry.builtins().forKind(group, version, kind).filter(ResourceDefinition::stored);
  }

  /**
   * {@link #get(String, String, String, String)} of a resource {@link #resource} found: a custom
   * resource is read as {@code resource}'s version. By default read by group and plural.
   */
  default Optional<ObjectNode> get(ResourceDefinition resource, String namespace, String name) {
    return get(resource.group(), resource.plural(), namespace, name);
  }

  /**
   * {@link #list(String, String, String)} of a resource {@link #resource} found: a custom resource
   * is read as {@code resource}'s version. By default read by group and plural.
   */
  default List<ObjectNode> list(ResourceDefinition resource, String namespace) {
    return list(resource.group(), resource.plural(), namespace);
  }

  /**
   * The object as storage holds it now: what kube's plug-ins fall back to (a live GET) when
   * their lister has not seen an object yet. By default {@link #get}.
   */
  default CompletableFuture<Optional<ObjectNode>> getLive(String group, String plural, String namespace,
      String name) {
    return CompletableFuture.completedFuture(get(group, plural, namespace, name));
  }
}

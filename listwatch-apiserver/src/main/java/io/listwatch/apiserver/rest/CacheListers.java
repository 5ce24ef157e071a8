package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@link Listers} over the server's watch caches: reads at resourceVersion 0 (whatever the cache
 * holds), so a read waits only while a cache is still filling at startup. Only the cachers the
 * server starts with (built-in resources) are read. Thread-safe; each object is parsed afresh.
 */
final class CacheListers implements Listers {

  private static final ListOptions ANY_VERSION = ListOptions.parse(Map.of("resourceVersion", List.of("0")));
  /** No resourceVersion: the cacher reads storage. */
  private static final ListOptions LIVE = ListOptions.parse(Map.of());

  private final Map<ResourceDefinition, Cacher> cachers;

  CacheListers(Map<ResourceDefinition, Cacher> cachers) {
    this.cachers = Map.copyOf(cachers);
  }

  @Override
  public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
    return cacher(group, plural).flatMap(c -> c.get(namespace, name, ANY_VERSION).join())
        .map(o -> ResourceStore.parse(o.json()));
  }

  @Override
  public List<ObjectNode> list(String group, String plural, String namespace) {
    return cacher(group, plural).map(c -> c.list(namespace, ANY_VERSION).join().items().stream()
        .map(CachedObject::json).map(ResourceStore::parse).toList()).orElse(List.of());
  }

  @Override
  public CompletableFuture<Optional<ObjectNode>> getLive(String group, String plural, String namespace,
      String name) {
    return cacher(group, plural).map(c -> c.get(namespace, name, LIVE)
        .thenApply(o -> o.map(found -> ResourceStore.parse(found.json()))))
        .orElse(CompletableFuture.completedFuture(Optional.empty()));
  }

  private Optional<Cacher> cacher(String group, String plural) {
    for (Map.Entry<ResourceDefinition, Cacher> e : cachers.entrySet()) {
      if (e.getKey().group().equals(group) && e.getKey().plural().equals(plural)) {
        return Optional.of(e.getValue());
      }
    }
    return Optional.empty();
  }
}

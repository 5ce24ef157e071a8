package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link Listers} over the server's watch caches: reads at resourceVersion 0 (whatever the cache
 * holds), so a read waits only while a cache is still filling at startup (at most 10 s, then
 * 503), and never on a closed cache. By group and plural, only the cachers the server starts
 * with (built-in resources) are read; by definition ({@link #get(ResourceDefinition, String,
 * String)}), any resource served now, custom resources included, through the cache that serves
 * it, as {@link #resource} finds it in the registry served now. Thread-safe.
 */
public final class CacheListers implements Listers {

  private static final ListOptions ANY_VERSION = ListOptions.parse(Map.of("resourceVersion", List.of("0")));
  /** No resourceVersion: the cacher reads storage. */
  private static final ListOptions LIVE = ListOptions.parse(Map.of());

  /** The caches by "group/plural", filled once by the constructor. */
  private final Map<String, Cacher> cachers = new java.util.HashMap<>();
  /**
   * Each cached object parsed once: a cached object is never changed (an update caches a new
   * one), so its tree is kept while the cache holds it, and callers get copies.
   */
  private final Map<CachedObject, ObjectNode> parsed =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  /** The registry served now, where {@link #resource} finds a kind. */
  private final Supplier<ResourceRegistry> served;
  /** The cache of a resource served now, built-in or custom, by its definition. */
  private final Function<ResourceDefinition, Optional<Cacher>> servedCaches;

  /** Over the built-in resources' caches only: {@link #resource} knows the built-in kinds. */
  public CacheListers(Map<ResourceDefinition, Cacher> cachers) {
    this(cachers, ResourceRegistry::builtins, def -> Optional.ofNullable(cachers.get(def)));
  }

  /**
   * Over the built-in resources' {@code cachers} and whatever the server serves now:
   * {@code served} gives the registry served now (read at each {@link #resource}) and
   * {@code servedCaches} the cache of one of its definitions (empty once it is not served).
   */
  public CacheListers(Map<ResourceDefinition, Cacher> cachers, Supplier<ResourceRegistry> served,
      Function<ResourceDefinition, Optional<Cacher>> servedCaches) {
    cachers.forEach((def, cacher) -> this.cachers.putIfAbsent(def.group() + "/" + def.plural(), cacher));
    this.served = served;
    this.servedCaches = servedCaches;
  }

  @Override
  public Optional<ResourceDefinition> resource(String group, String version, String kind) {
    return served.get().forKind(group, version, kind).filter(ResourceDefinition::stored);
  }

  @Override
  public Optional<ObjectNode> get(ResourceDefinition resource, String namespace, String name) {
    return servedCaches.apply(resource).flatMap(c -> await(c, c.get(namespace, name, ANY_VERSION))).map(this::tree);
  }

  @Override
  public List<ObjectNode> list(ResourceDefinition resource, String namespace) {
    return servedCaches.apply(resource).map(c -> await(c, c.list(namespace, ANY_VERSION)).items().stream()
        .map(this::tree).toList()).orElse(List.of());
  }

  @Override
  public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
    return cacher(group, plural).flatMap(c -> await(c, c.get(namespace, name, ANY_VERSION))).map(this::tree);
  }

  @Override
  public List<ObjectNode> list(String group, String plural, String namespace) {
    return cacher(group, plural).map(c -> await(c, c.list(namespace, ANY_VERSION)).items().stream()
        .map(this::tree).toList()).orElse(List.of());
  }

  /** How long a read waits for a cache that is not ready (kube's admission plug-ins wait 10 s for their informers). */
  private static final long READY_TIMEOUT_SECONDS = 10;

  /**
   * The answer of a read from {@code cacher}: at once when the cache is ready, as it is once the
   * server has started; else after at most {@link #READY_TIMEOUT_SECONDS}, and never from a
   * closed cache (a server shutting down), so that a request never holds its thread for good.
   *
   * @throws StatusException 503 with kube's {@code not yet ready to handle request}
   */
  private static <T> T await(Cacher cacher, CompletableFuture<T> read) {
    if (!read.isDone() && !cacher.acceptsWatches()) {
      throw notReady(cacher);
    }
    try {
      return read.get(READY_TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw notReady(cacher);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new java.util.concurrent.CompletionException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw notReady(cacher);
    }
  }

  private static io.listwatch.api.StatusException notReady(Cacher cacher) {
    return io.listwatch.api.StatusException.unavailable("not yet ready to handle request: the watch cache of "
        + cacher.resource().plural() + " is not ready");
  }

  @Override
  public CompletableFuture<Optional<ObjectNode>> getLive(String group, String plural, String namespace,
      String name) {
    return cacher(group, plural).map(c -> c.get(namespace, name, LIVE)
        .thenApply(o -> o.map(found -> ResourceStore.parse(found.json()))))
        .orElse(CompletableFuture.completedFuture(Optional.empty()));
  }

  /** A copy of {@code o}'s JSON tree, parsed on its first read. */
  private ObjectNode tree(CachedObject o) {
    return parsed.computeIfAbsent(o, c -> ResourceStore.parse(c.json())).deepCopy();
  }

  private Optional<Cacher> cacher(String group, String plural) {
    return Optional.ofNullable(cachers.get(group + "/" + plural));
  }
}

package io.listwatch.apiserver.apiextensions;

import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.rest.ServedResources;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.rest.WriteAdmission;
import io.listwatch.storage.Storage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the server serves a custom resource version at runtime: a watch cache of its own (each
 * version has one, over the same storage prefix: storage keys carry no version), its routes in the catalogue,
 * and whoever follows every resource's objects (the server's garbage collector and namespace
 * controller, as {@link Listener}s); unserving undoes all of it and closes the cache (which
 * ends its watches).
 *
 * <p>Thread-safe: called by the CRD controller's thread; the maps are concurrent so
 * {@link #closeAll} may run from another.
 */
public final class CustomResourceServing implements CustomResourceDefinitionController.Serving {

  /** Told when a custom resource's store starts or stops being served; called on the CRD controller's thread. */
  public interface Listener {
    void served(ResourceStore store);

    void unserved(ResourceStore store);
  }

  private record Served(Cacher cacher, ResourceStore store) {
  }

  private final ServedResources resources;
  private final Storage storage;
  private final CacherConfig cacherConfig;
  private final Clock clock;
  private final java.util.List<Listener> listeners;
  /** What is served now, by "group/version/plural". */
  private final Map<String, Served> served = new ConcurrentHashMap<>();

  public CustomResourceServing(ServedResources resources, Storage storage, CacherConfig cacherConfig,
      Clock clock, java.util.List<Listener> listeners) {
    this.resources = resources;
    this.storage = storage;
    this.cacherConfig = cacherConfig;
    this.clock = clock;
    this.listeners = java.util.List.copyOf(listeners);
  }

  private static String key(ResourceDefinition def) {
    return def.group() + "/" + def.version() + "/" + def.plural();
  }

  @Override
  public ResourceStore serve(ResourceDefinition def, WriteAdmission admission) {
    Cacher cacher = new Cacher(def, storage, cacherConfig, clock);
    cacher.start();
    ResourceStore store = resources.serve(def, cacher, java.util.List.of(admission));
    Served previous = served.put(key(def), new Served(cacher, store));
    if (previous != null) {
      stop(previous);
    }
    listeners.forEach(l -> l.served(store));
    return store;
  }

  @Override
  public void unserve(ResourceDefinition def) {
    resources.unserve(def);
    Served gone = served.remove(key(def));
    if (gone != null) {
      stop(gone);
    }
  }

  /** Stops serving: its watches end once they have the events of every committed write (the objects' deletions). */
  private void stop(Served s) {
    listeners.forEach(l -> l.unserved(s.store()));
    s.cacher().closeWhenCaughtUp();
  }

  /** The caches of the custom resources served now. */
  public java.util.List<Cacher> cachers() {
    return served.values().stream().map(Served::cacher).toList();
  }

  /** Closes every cache (server shutdown). */
  public void closeAll() {
    served.values().forEach(s -> s.cacher().close());
    served.clear();
  }
}

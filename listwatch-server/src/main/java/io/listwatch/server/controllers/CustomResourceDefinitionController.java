package io.listwatch.server.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.server.cacher.CacheListener;
import io.listwatch.server.cacher.CachedObject;
import io.listwatch.server.cacher.WatchCacheEvent;
import io.listwatch.server.apiextensions.CustomResources;
import io.listwatch.server.registry.ResourceDefinition;
import io.listwatch.server.rest.ResourceStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves the custom resources CustomResourceDefinitions declare, as kube's apiextensions
 * controllers do: a definition's storage version is served (CRUD, list, watch with the watch
 * cache, JSON and merge patches, discovery) as soon as the definition is stored, and its
 * status gets {@code acceptedNames}, {@code storedVersions} and the {@code NamesAccepted} and
 * {@code Established} conditions. A change of the names, scope, storage version or status
 * subresource serves the new definition; a deleted definition is no longer served.
 *
 * <p>Not yet (step 6): the other served versions, name conflicts between definitions
 * (NamesAccepted is always True), deleting a definition's objects before it goes (they stay
 * in storage, unserved), the schema's validation, pruning and defaulting.
 *
 * <p>Thread-safe: listeners only queue definition names; the work runs on the
 * {@code crd-controller} thread.
 */
public final class CustomResourceDefinitionController implements AutoCloseable {

  /** How the server starts and stops serving a resource (it owns the caches). */
  public interface Serving {
    void serve(ResourceDefinition def);

    void unserve(ResourceDefinition def);
  }

  private final ResourceStore definitions;
  private final Serving serving;
  private final Clock clock;
  /** What each definition is served as now, by the definition's name. */
  private final Map<String, Served> served = new ConcurrentHashMap<>();
  private final ControllerQueue queue = new ControllerQueue("crd-controller", this::sync);

  private record Served(ResourceDefinition def, String signature) {
  }

  public CustomResourceDefinitionController(ResourceStore definitions, Serving serving, Clock clock) {
    this.definitions = definitions;
    this.serving = serving;
    this.clock = clock;
  }

  /** Registers the cache listener and starts the worker. */
  public void start() {
    queue.start();
    definitions.cacher().addListener(new CacheListener() {
      @Override
      public void onReplace(List<CachedObject> objects, long resourceVersion) {
        objects.forEach(o -> queue.add(o.name()));
      }

      @Override
      public void onEvent(WatchCacheEvent event) {
        queue.add(event.object().name());
      }
    });
  }

  private void sync(String name) {
    var found = definitions.getInternal("", name).join();
    if (found.isEmpty() || ObjectMetaRules.isMarkedForDeletion(found.get())) {
      Served gone = served.remove(name);
      if (gone != null) {
        serving.unserve(gone.def());
      }
      return;
    }
    ObjectNode crd = found.get();
    JsonNode spec = crd.path("spec");
    JsonNode storage = null;
    for (JsonNode v : spec.path("versions")) {
      if (v.path("storage").asBoolean(false)) {
        storage = v;
      }
    }
    if (storage == null) {
      return; // validation refuses such a definition
    }
    // any change of the spec (schema, columns, subresources, names) serves the new definition
    String signature = spec.toString();
    Served now = served.get(name);
    if (now == null || !now.signature().equals(signature)) {
      ResourceDefinition def = CustomResources.definition(spec, storage);
      if (now != null) {
        serving.unserve(now.def());
      }
      serving.serve(def);
      served.put(name, new Served(def, signature));
    }
    markEstablished(name, spec, storage.path("name").asText());
  }

  /** Sets the accepted names, stored versions and the two conditions, unless they are already so. */
  private void markEstablished(String name, JsonNode spec, String storageVersion) {
    definitions.updateStatusInternal("", name, crd -> {
      ObjectNode status = crd.get("status") instanceof ObjectNode s ? s : crd.putObject("status");
      status.set("acceptedNames", crd.path("spec").path("names").deepCopy());
      ArrayNode stored = status.get("storedVersions") instanceof ArrayNode a ? a : status.putArray("storedVersions");
      boolean has = false;
      for (JsonNode v : stored) {
        has |= v.asText().equals(storageVersion);
      }
      if (!has) {
        stored.add(storageVersion);
      }
      ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
      condition(conditions, "NamesAccepted", "NoConflicts", "no conflicts found");
      condition(conditions, "Established", "InitialNamesAccepted", "the initial names have been accepted");
      return crd;
    }).join();
  }

  private void condition(ArrayNode conditions, String type, String reason, String message) {
    for (JsonNode c : conditions) {
      if (c.path("type").asText().equals(type) && c instanceof ObjectNode o) {
        if (!o.path("status").asText().equals("True")) {
          o.put("status", "True").put("reason", reason).put("message", message)
              .put("lastTransitionTime", ObjectMetaRules.timestamp(clock.now()));
        }
        return;
      }
    }
    conditions.addObject().put("type", type).put("status", "True")
        .put("lastTransitionTime", ObjectMetaRules.timestamp(clock.now())).put("reason", reason).put("message", message);
  }

  @Override
  public void close() {
    queue.close();
  }
}

package io.listwatch.server.controllers;

import io.listwatch.apiserver.controller.ControllerQueue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.rest.DeleteOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's namespace controller: empties a namespace that is being deleted, then lets it go.
 *
 * <p>A DELETE of a namespace marks it ({@code deletionTimestamp}, {@code status.phase:
 * Terminating}) because of its {@code spec.finalizers: ["kubernetes"]}; creating anything in it
 * is then refused (403). This controller deletes every object in the namespace (each with its
 * type's default propagation; pods with their grace period), records progress in the namespace's
 * conditions as kube does ({@code NamespaceDeletionDiscoveryFailure},
 * {@code NamespaceDeletionGroupVersionParsingFailure}, {@code NamespaceDeletionContentFailure},
 * {@code NamespaceContentRemaining}, {@code NamespaceFinalizersRemaining}), and once nothing is
 * left removes the {@code kubernetes} finalizer, which removes the namespace. It looks again
 * whenever an object in a terminating namespace is deleted, so objects that take time (a pod's
 * grace period, another finalizer) hold the namespace until they are gone.
 *
 * <p>Thread-safe: listeners only queue namespace names; the work runs on the
 * {@code namespace-controller} thread.
 */
public final class NamespaceController implements AutoCloseable {

  static final String FINALIZER = "kubernetes";

  private final ResourceStore namespaces;
  /** The stores served now (custom resources come and go): their namespaced ones are a namespace's content. */
  private final java.util.function.Supplier<List<ResourceStore>> stores;
  /** The namespaced stores served at start, whose deletions are watched (later ones: {@link #serve}). */
  private final List<ResourceStore> contents;
  private final Clock clock;
  /** Namespaces seen terminating: deletions in them queue a new look. */
  private final Set<String> terminating = ConcurrentHashMap.newKeySet();
  private final ControllerQueue queue;

  public NamespaceController(ResourceStore namespaces, List<ResourceStore> stores, Clock clock) {
    this(namespaces, () -> stores, clock);
  }

  /**
   * @param stores the stores served at the time it is called: a namespace being deleted is
   *     emptied of the objects of each namespaced one, custom resources included
   */
  public NamespaceController(ResourceStore namespaces, java.util.function.Supplier<List<ResourceStore>> stores,
      Clock clock) {
    this(namespaces, stores, clock, ControllerLeadership.always());
  }

  /** A controller that acts only while {@code leadership} leads. */
  public NamespaceController(ResourceStore namespaces, java.util.function.Supplier<List<ResourceStore>> stores,
      Clock clock, ControllerLeadership leadership) {
    this.queue = new ControllerQueue("namespace-controller", this::sync, leadership, clock);
    this.namespaces = namespaces;
    this.stores = stores;
    this.contents = namespaced(stores.get());
    this.clock = clock;
  }

  /** Registers the cache listeners and starts the worker. */
  public void start() {
    queue.start();
    namespaces.cacher().addListener(new CacheListener() {
      @Override
      public void onReplace(List<CachedObject> objects, long resourceVersion) {
        objects.forEach(o -> consider(o));
      }

      @Override
      public void onEvent(WatchCacheEvent event) {
        if (event.type() != WatchCacheEvent.Type.DELETED) {
          consider(event.object());
        } else {
          terminating.remove(event.object().name());
        }
      }
    });
    contents.forEach(this::serve);
  }

  /**
   * Watches the deletions of a resource served after start (a custom resource), so a
   * terminating namespace is looked at again as its objects go. Cluster-scoped ones are
   * ignored.
   */
  public void serve(ResourceStore store) {
    if (!store.resource().namespaced()) {
      return;
    }
    store.cacher().addListener(new CacheListener() {
      @Override
      public void onReplace(List<CachedObject> objects, long resourceVersion) {
      }

      @Override
      public void onEvent(WatchCacheEvent event) {
        if (event.type() == WatchCacheEvent.Type.DELETED && terminating.contains(event.object().namespace())) {
          queue.add(event.object().namespace());
        }
      }
    });
  }

  private static List<ResourceStore> namespaced(List<ResourceStore> stores) {
    return stores.stream().filter(s -> s.resource().namespaced()).toList();
  }

  private void consider(CachedObject namespace) {
    if ("Terminating".equals(namespace.fields().get("status.phase"))) {
      terminating.add(namespace.name());
      queue.add(namespace.name());
    }
  }

  private void sync(String name) {
    Optional<ObjectNode> found = namespaces.getInternal("", name).join();
    if (found.isEmpty() || !ObjectMetaRules.isMarkedForDeletion(found.get())) {
      terminating.remove(name);
      return;
    }
    terminating.add(name);
    boolean ours = false;
    for (JsonNode f : found.get().path("spec").path("finalizers")) {
      ours |= f.asText().equals(FINALIZER);
    }
    if (!ours) {
      return;
    }
    boolean deleteFailed = false;
    for (ResourceStore store : namespaced(stores.get())) {
      for (ObjectNode obj : store.listInternal(name).join()) {
        if (ObjectMetaRules.isMarkedForDeletion(obj)) {
          continue;
        }
        try {
          store.deleteInternal(name, obj.path("metadata").path("name").asText(),
              DeleteOptions.of(obj.path("metadata").path("uid").asText(), null)).join();
        } catch (CompletionException e) {
          if (!(e.getCause() instanceof StatusException se && (se.code() == 404 || se.code() == 409))) {
            deleteFailed = true;
          }
        }
      }
    }
    Map<String, Integer> remaining = new TreeMap<>();
    Map<String, Integer> finalizers = new TreeMap<>();
    for (ResourceStore store : namespaced(stores.get())) {
      List<ObjectNode> left = store.listInternal(name).join();
      if (!left.isEmpty()) {
        remaining.put(store.resource().plural() + "." + store.resource().group(), left.size());
      }
      for (ObjectNode o : left) {
        for (String f : ObjectMetaRules.finalizers(o)) {
          finalizers.merge(f, 1, Integer::sum);
        }
      }
    }
    setConditions(name, deleteFailed, remaining, finalizers);
    if (remaining.isEmpty() && !deleteFailed) {
      namespaces.finalizeInternal(name, ns -> {
        JsonNode f = ns.path("spec").path("finalizers");
        if (f instanceof ArrayNode a) {
          for (int i = a.size() - 1; i >= 0; i--) {
            if (a.get(i).asText().equals(FINALIZER)) {
              a.remove(i);
            }
          }
        }
        return ns;
      }).join();
    }
  }

  private void setConditions(String name, boolean deleteFailed, Map<String, Integer> remaining,
      Map<String, Integer> finalizers) {
    String now = ObjectMetaRules.timestamp(clock.now());
    List<String[]> wanted = new ArrayList<>();
    wanted.add(new String[] {"NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered",
        "All resources successfully discovered"});
    wanted.add(new String[] {"NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions",
        "All legacy kube types successfully parsed"});
    wanted.add(deleteFailed
        ? new String[] {"NamespaceDeletionContentFailure", "True", "ContentDeletionFailed",
            "Failed to delete all resource types, see the server log"}
        : new String[] {"NamespaceDeletionContentFailure", "False", "ContentDeleted",
            "All content successfully deleted, may be waiting on finalization"});
    wanted.add(remaining.isEmpty()
        ? new String[] {"NamespaceContentRemaining", "False", "ContentRemoved", "All content successfully removed"}
        : new String[] {"NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: "
            + String.join(", ", remaining.entrySet().stream()
                .map(e -> e.getKey() + " has " + e.getValue() + " resource instances").toList())});
    wanted.add(finalizers.isEmpty()
        ? new String[] {"NamespaceFinalizersRemaining", "False", "ContentHasNoFinalizers",
            "All content-preserving finalizers finished"}
        : new String[] {"NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain",
            "Some content in the namespace has finalizers remaining: " + String.join(", ", finalizers.entrySet()
                .stream().map(e -> e.getKey() + " in " + e.getValue() + " resource instances").toList())});
    namespaces.updateStatusInternal("", name, ns -> {
      ObjectNode status = ns.get("status") instanceof ObjectNode s ? s : ns.putObject("status");
      ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
      for (String[] w : wanted) {
        ObjectNode existing = null;
        for (JsonNode c : conditions) {
          if (c.path("type").asText().equals(w[0]) && c instanceof ObjectNode o) {
            existing = o;
          }
        }
        if (existing == null) {
          existing = conditions.addObject().put("type", w[0]);
        }
        if (!existing.path("status").asText().equals(w[1])) {
          existing.put("lastTransitionTime", now);
        }
        existing.put("status", w[1]).put("reason", w[2]).put("message", w[3]);
      }
      return ns;
    }).join();
  }

  /** Stops the worker. Idempotent. */
  @Override
  public void close() {
    queue.close();
  }
}

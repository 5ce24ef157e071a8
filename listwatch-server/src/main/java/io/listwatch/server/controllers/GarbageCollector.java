package io.listwatch.server.controllers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.apiserver.controller.ControllerQueue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.rest.DeleteOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * kube's garbage collector, small: follows {@code metadata.ownerReferences} when an owner is
 * deleted.
 *
 * <ul>
 *   <li><b>Background</b>: when an object is gone, each object that names its uid in an
 *       ownerReference is deleted (background again) if none of its other owners still exists,
 *       otherwise the reference to the gone owner is removed.
 *   <li><b>Foreground</b>: an object marked for deletion with the {@code foregroundDeletion}
 *       finalizer has its dependents deleted (foreground), and loses the finalizer (and so goes)
 *       once no dependent with {@code blockOwnerDeletion: true} is left.
 *   <li><b>Orphan</b>: an object marked with the {@code orphan} finalizer has the references to it
 *       removed from its dependents, then loses the finalizer.
 * </ul>
 *
 * <p>A dependent is collected once <em>none</em> of its owners exists, whenever it lost them:
 * an object created or changed to name an owner that is already gone (a controller whose cache
 * lagged creating a ReplicaSet for a Deployment just deleted, or a client naming a uid that
 * never existed) is collected as one whose owner goes later, as kube's collector does for an
 * owner it has not seen ("virtual" owners, looked up live). An owner is gone when a read of
 * storage finds no object of its kind, name and uid; a dependent whose other owners still exist
 * only loses the references to the gone ones. A reference to a kind the server does not serve
 * cannot be checked: its dependent is left as it is (kube retries such an object until the kind
 * is served).
 *
 * <p>Driven by the watch caches: a {@link CacheListener} on every stored resource queues work
 * for deleted objects (parsed once, at deletion), for objects that carry a garbage-collector
 * finalizer while being deleted, and for objects that newly name an owner their owner's cache
 * does not hold; one worker thread ({@code garbage-collector}) does the work against storage.
 * The listeners keep the owner graph (owner uid to the objects that name it), parsing only
 * objects that carry ownerReferences, so a deletion costs a lookup, not a scan. No dependent
 * slips between the two: a listener links a dependent before it looks its owner up in the
 * owner's cache, and that cache drops the owner before its listeners queue the owner's
 * deletion, so either the look finds the owner gone or the deletion's work finds the dependent.
 * Work that fails is logged and not retried until the object changes again.
 *
 * <p>Custom resources are followed while they are served ({@link #serve}, {@link #unserve}).
 *
 * <p>Thread-safe: listeners update the owner graph (under its lock) and queue keys; everything
 * else runs on the worker; the list of stores is copy-on-write.
 */
public final class GarbageCollector implements AutoCloseable {

  static final String FOREGROUND = "foregroundDeletion";
  static final String ORPHAN = "orphan";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] DELETION_TIMESTAMP = "\"deletionTimestamp\"".getBytes(StandardCharsets.US_ASCII);

  private static final byte[] OWNER_REFERENCES = "\"ownerReferences\"".getBytes(StandardCharsets.US_ASCII);

  /** The stores followed: the built-ins given at start, and custom resources as they are served. */
  private final List<ResourceStore> stores;
  private final ControllerQueue queue;
  /**
   * The owner graph: owner uid to the keys ({@code group/plural/namespace/name}) of the objects
   * naming it, and each such object's owner uids. Updated by the listeners (each under its
   * cache's dispatch lock), read by the worker. Holds one entry per object with
   * ownerReferences.
   */
  @GuardedBy("graphLock")
  private final Map<String, Dependents> dependentsByOwner = new java.util.HashMap<>();
  @GuardedBy("graphLock")
  private final Map<String, List<String>> ownersByDependent = new java.util.HashMap<>();
  private final Object graphLock = new Object();

  /** @param stores the store of every stored resource */
  public GarbageCollector(List<ResourceStore> stores) {
    this(stores, ControllerLeadership.always());
  }

  /** A collector that deletes only while {@code leadership} leads (it tracks owners always). */
  public GarbageCollector(List<ResourceStore> stores, ControllerLeadership leadership) {
    this.stores = new java.util.concurrent.CopyOnWriteArrayList<>(stores);
    this.queue = new ControllerQueue("garbage-collector", this::process, leadership, io.listwatch.api.clock.Clock.system());
  }

  /** Registers the cache listeners and starts the worker. */
  public void start() {
    queue.start();
    for (ResourceStore store : stores) {
      store.cacher().addListener(new Listener(store.resource()));
    }
  }

  /**
   * Follows a resource served after start (a version of a custom resource): its objects may own
   * others and be owned. Call after {@link #start}.
   */
  public void serve(ResourceStore store) {
    stores.add(store);
    store.cacher().addListener(new Listener(store.resource()));
  }

  /**
   * Stops following a resource {@link #serve} followed (its cache is closing). When no other
   * version of it is followed, its objects leave the owner graph.
   */
  public void unserve(ResourceStore store) {
    stores.remove(store);
    ResourceDefinition def = store.resource();
    if (stores.stream().anyMatch(s -> s.resource().group().equals(def.group())
        && s.resource().plural().equals(def.plural()))) {
      return;
    }
    String prefix = def.group() + "/" + def.plural() + "/";
    synchronized (graphLock) {
      for (String key : List.copyOf(ownersByDependent.keySet())) {
        if (key.startsWith(prefix)) {
          unlink(key);
        }
      }
    }
  }

  private final class Listener implements CacheListener {
    private final ResourceDefinition def;

    Listener(ResourceDefinition def) {
      this.def = def;
    }

    @Override
    public void onReplace(List<CachedObject> objects, long resourceVersion) {
      String prefix = def.group() + "/" + def.plural() + "/";
      synchronized (graphLock) {
        for (String key : List.copyOf(ownersByDependent.keySet())) {
          if (key.startsWith(prefix)) {
            unlink(key);
          }
        }
      }
      for (CachedObject o : objects) {
        link(o);
        if (contains(o.json(), DELETION_TIMESTAMP)) {
          queue.add(checkKey(def, o.namespace(), o.name()));
        }
      }
    }

    private void link(CachedObject o) {
      String key = def.group() + "/" + def.plural() + "/" + o.namespace() + "/" + o.name();
      List<JsonNode> refs = new ArrayList<>();
      List<String> owners = new ArrayList<>();
      if (contains(o.json(), OWNER_REFERENCES)) {
        parse(o.json()).path("metadata").path("ownerReferences").forEach(r -> {
          refs.add(r);
          owners.add(r.path("uid").asText(""));
        });
      }
      List<String> before;
      synchronized (graphLock) {
        before = unlink(key);
        if (!owners.isEmpty()) {
          // each dependent keeps its owner's uid String, not a copy: one String per owner
          // however many dependents name it (a ReplicaSet's pods), in a list sized to fit
          String[] shared = new String[owners.size()];
          for (int i = 0; i < shared.length; i++) {
            Dependents deps = dependentsByOwner.computeIfAbsent(owners.get(i),
                u -> new Dependents(u, new java.util.HashSet<>()));
            deps.keys().add(key);
            shared[i] = deps.uid();
          }
          ownersByDependent.put(key, List.of(shared));
        }
      }
      // linked first, looked up second: see the class comment
      for (JsonNode ref : refs) {
        if (!before.contains(ref.path("uid").asText("")) && !cached(ref, o.namespace())) {
          queue.add(ownersKey(def, o.namespace(), o.name()));
          return;
        }
      }
    }

    @Override
    public void onEvent(WatchCacheEvent event) {
      CachedObject o = event.object();
      if (event.type() == WatchCacheEvent.Type.DELETED) {
        synchronized (graphLock) {
          unlink(def.group() + "/" + def.plural() + "/" + o.namespace() + "/" + o.name());
        }
      } else {
        link(o);
      }
      if (event.type() == WatchCacheEvent.Type.DELETED) {
        ObjectNode gone = parse(o.json());
        queue.add("gone/" + o.namespace() + "/" + gone.path("metadata").path("uid").asText(""));
        for (JsonNode ref : gone.path("metadata").path("ownerReferences")) {
          definitionOf(ref).ifPresent(owner -> queue.add(checkKey(owner.resource(),
              owner.resource().namespaced() ? o.namespace() : "", ref.path("name").asText(""))));
        }
      } else if (contains(o.json(), DELETION_TIMESTAMP)) {
        queue.add(checkKey(def, o.namespace(), o.name()));
      }
    }
  }

  /**
   * The keys of the objects naming one owner, and the owner's uid as the owner graph's one
   * String for it. Guarded by {@link #graphLock}.
   */
  private record Dependents(String uid, java.util.Set<String> keys) {
  }

  /**
   * Forgets the owners of {@code key} and answers the uids it named (none if it was not linked);
   * the caller holds {@link #graphLock}.
   */
  @GuardedBy("graphLock")
  private List<String> unlink(String key) {
    assert Thread.holdsLock(graphLock);
    List<String> owners = ownersByDependent.remove(key);
    if (owners == null) {
      return List.of();
    }
    for (String uid : owners) {
      Dependents deps = dependentsByOwner.get(uid);
      if (deps != null) {
        deps.keys().remove(key);
        if (deps.keys().isEmpty()) {
          dependentsByOwner.remove(uid);
        }
      }
    }
    return owners;
  }

  /**
   * Whether the owner {@code ref} names is in its resource's watch cache now, with the uid it
   * names; true too for a kind not served (nothing to look at). Cheap: a map lookup and a read
   * of the owner's uid, no storage read.
   */
  private boolean cached(JsonNode ref, String dependentNamespace) {
    Optional<ResourceStore> owner = definitionOf(ref);
    if (owner.isEmpty()) {
      return true;
    }
    String ns = owner.get().resource().namespaced() ? dependentNamespace : "";
    String name = ref.path("name").asText("");
    return !name.isEmpty() && owner.get().cacher().cached(ns, name)
        .filter(o -> ref.path("uid").asText("").equals(uidOf(o.json()))).isPresent();
  }

  /** {@code metadata.uid} of a cached object's JSON, read without building a tree; "" if none. */
  static String uidOf(byte[] json) {
    try (JsonParser p = JSON.getFactory().createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return "";
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (!field.equals("metadata") || value != JsonToken.START_OBJECT) {
          p.skipChildren();
          continue;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String inner = p.currentName();
          if (p.nextToken() == JsonToken.VALUE_STRING && inner.equals("uid")) {
            return p.getText();
          }
          p.skipChildren();
        }
        return "";
      }
      return "";
    } catch (IOException e) {
      return "";
    }
  }

  private static String ownersKey(ResourceDefinition def, String namespace, String name) {
    return "owners/" + def.group() + "/" + def.plural() + "/" + namespace + "/" + name;
  }

  private static String checkKey(ResourceDefinition def, String namespace, String name) {
    return "check/" + def.group() + "/" + def.plural() + "/" + namespace + "/" + name;
  }

  private void process(String key) {
    String[] k = key.split("/", -1);
    switch (k[0]) {
      case "gone" -> ownerGone(k[1], k[2]);
      case "owners" -> storeOf(k[1], k[2]).ifPresent(s -> get(s, k[3], k[4])
          .ifPresent(o -> collectIfOwnersGone(new Dependent(s, k[3], k[4], o), "")));
      default -> storeOf(k[1], k[2]).ifPresent(s -> deleting(s, k[3], k[4]));
    }
  }

  private Optional<ResourceStore> storeOf(String group, String plural) {
    return stores.stream().filter(s -> s.resource().group().equals(group) && s.resource().plural().equals(plural))
        .findFirst();
  }

  /** The owner with {@code uid} in {@code namespace} ("" when cluster-scoped) is gone: collect its dependents. */
  private void ownerGone(String namespace, String uid) {
    if (uid.isEmpty()) {
      return;
    }
    for (Dependent d : dependents(namespace, uid)) {
      collectIfOwnersGone(d, uid);
    }
  }

  /**
   * kube's check of one dependent: each owner it names is looked up in storage (but {@code
   * goneUid}, known gone; "" for none). None exists: the dependent is deleted (foreground if it
   * carries the foregroundDeletion finalizer, orphaning if the orphan one, else background);
   * some exist: the references to the others are removed. A dependent being deleted, or naming
   * a kind not served, is left as it is.
   */
  private void collectIfOwnersGone(Dependent d, String goneUid) {
    JsonNode metadata = d.object().path("metadata");
    if (!metadata.path("deletionTimestamp").isMissingNode()) {
      return;
    }
    java.util.Set<String> gone = new java.util.HashSet<>();
    boolean ownerLeft = false;
    for (JsonNode ref : metadata.path("ownerReferences")) {
      String uid = ref.path("uid").asText("");
      if (uid.equals(goneUid)) {
        gone.add(uid);
      } else if (definitionOf(ref).isEmpty()) {
        return;
      } else if (ownerExists(ref, d.namespace())) {
        ownerLeft = true;
      } else {
        gone.add(uid);
      }
    }
    if (gone.isEmpty()) {
      return;
    }
    if (ownerLeft) {
      removeOwnerReferences(d, gone);
      return;
    }
    List<String> finalizers = new ArrayList<>();
    metadata.path("finalizers").forEach(f -> finalizers.add(f.asText()));
    delete(d, finalizers.contains(FOREGROUND) ? DeleteOptions.Propagation.Foreground
        : finalizers.contains(ORPHAN) ? DeleteOptions.Propagation.Orphan : DeleteOptions.Propagation.Background);
  }

  /** An object being deleted: act on its garbage-collector finalizers. */
  private void deleting(ResourceStore store, String namespace, String name) {
    Optional<ObjectNode> found = get(store, namespace, name);
    if (found.isEmpty() || found.get().path("metadata").path("deletionTimestamp").isMissingNode()) {
      return;
    }
    ObjectNode owner = found.get();
    List<String> finalizers = new ArrayList<>();
    owner.path("metadata").path("finalizers").forEach(f -> finalizers.add(f.asText()));
    String uid = owner.path("metadata").path("uid").asText();
    String scope = store.resource().namespaced() ? namespace : "";
    if (finalizers.contains(ORPHAN)) {
      for (Dependent d : dependents(scope, uid)) {
        removeOwnerReferences(d, java.util.Set.of(uid));
      }
      removeFinalizer(store, namespace, name, uid, ORPHAN);
    } else if (finalizers.contains(FOREGROUND)) {
      for (Dependent d : dependents(scope, uid)) {
        if (d.object().path("metadata").path("deletionTimestamp").isMissingNode()) {
          delete(d, DeleteOptions.Propagation.Foreground);
        }
      }
      boolean blocked = dependents(scope, uid).stream().anyMatch(d -> blocks(d.object(), uid));
      if (!blocked) {
        removeFinalizer(store, namespace, name, uid, FOREGROUND);
      }
    }
  }

  private static boolean blocks(ObjectNode dependent, String ownerUid) {
    for (JsonNode ref : dependent.path("metadata").path("ownerReferences")) {
      if (ref.path("uid").asText().equals(ownerUid) && ref.path("blockOwnerDeletion").asBoolean(false)) {
        return true;
      }
    }
    return false;
  }

  private record Dependent(ResourceStore store, String namespace, String name, ObjectNode object) {
  }

  /** Every object naming {@code uid} in its ownerReferences, in {@code namespace} ("" for all), read afresh. */
  private List<Dependent> dependents(String namespace, String uid) {
    List<String> keys;
    synchronized (graphLock) {
      Dependents deps = dependentsByOwner.get(uid);
      keys = deps == null ? List.of() : List.copyOf(deps.keys());
    }
    List<Dependent> out = new ArrayList<>();
    for (String key : keys) {
      String[] k = key.split("/", -1);
      if (!namespace.isEmpty() && !k[2].equals(namespace)) {
        continue; // kube ignores a namespaced owner referenced from another namespace
      }
      Optional<ResourceStore> store = storeOf(k[0], k[1]);
      if (store.isEmpty()) {
        continue;
      }
      Optional<ObjectNode> obj = get(store.get(), k[2], k[3]);
      if (obj.isPresent()) {
        for (JsonNode ref : obj.get().path("metadata").path("ownerReferences")) {
          if (ref.path("uid").asText().equals(uid)) {
            out.add(new Dependent(store.get(), k[2], k[3], obj.get()));
            break;
          }
        }
      }
    }
    return out;
  }

  private boolean ownerExists(JsonNode ref, String dependentNamespace) {
    Optional<ResourceStore> store = definitionOf(ref);
    if (store.isEmpty()) {
      return false;
    }
    String ns = store.get().resource().namespaced() ? dependentNamespace : "";
    return get(store.get(), ns, ref.path("name").asText(""))
        .filter(o -> o.path("metadata").path("uid").asText().equals(ref.path("uid").asText()))
        .isPresent();
  }

  private Optional<ResourceStore> definitionOf(JsonNode ref) {
    String apiVersion = ref.path("apiVersion").asText("");
    String kind = ref.path("kind").asText("");
    return stores.stream().filter(s -> s.resource().apiVersion().equals(apiVersion) && s.resource().kind().equals(kind))
        .findFirst();
  }

  private static Optional<ObjectNode> get(ResourceStore store, String namespace, String name) {
    if (name.isEmpty()) {
      return Optional.empty();
    }
    return store.getInternal(namespace, name).join();
  }

  private static void removeOwnerReferences(Dependent d, java.util.Set<String> uids) {
    ignoringGone(() -> d.store().updateInternal(d.namespace(), d.name(), obj -> {
      JsonNode refs = obj.path("metadata").path("ownerReferences");
      if (refs instanceof ArrayNode a) {
        for (int i = a.size() - 1; i >= 0; i--) {
          if (uids.contains(a.get(i).path("uid").asText())) {
            a.remove(i);
          }
        }
        if (a.isEmpty()) {
          ((ObjectNode) obj.get("metadata")).remove("ownerReferences");
        }
      }
      return obj;
    }).join());
  }

  private static void removeFinalizer(ResourceStore store, String namespace, String name, String uid, String finalizer) {
    ignoringGone(() -> store.updateInternal(namespace, name, obj -> {
      if (!obj.path("metadata").path("uid").asText().equals(uid)) {
        return obj; // another object of that name now
      }
      JsonNode f = obj.path("metadata").path("finalizers");
      if (f instanceof ArrayNode a) {
        for (int i = a.size() - 1; i >= 0; i--) {
          if (a.get(i).asText().equals(finalizer)) {
            a.remove(i);
          }
        }
        if (a.isEmpty()) {
          ((ObjectNode) obj.get("metadata")).remove("finalizers");
        }
      }
      return obj;
    }).join());
  }

  private static void delete(Dependent d, DeleteOptions.Propagation propagation) {
    String uid = d.object().path("metadata").path("uid").asText();
    ignoringGone(() -> d.store().deleteInternal(d.namespace(), d.name(), DeleteOptions.of(uid, propagation)).join());
  }

  /** Runs a write; an object gone meanwhile (404) or replaced (409 on the uid precondition) is fine. */
  private static void ignoringGone(Runnable write) {
    try {
      write.run();
    } catch (CompletionException e) {
      if (!(e.getCause() instanceof StatusException se && (se.code() == 404 || se.code() == 409))) {
        throw e;
      }
    }
  }

  static ObjectNode parse(byte[] json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (IOException | ClassCastException e) {
      throw new IllegalStateException("cached object is not a JSON object", e);
    }
  }

  static boolean contains(byte[] haystack, byte[] needle) {
    // Latin-1 maps each byte to one char, so this is a byte search
    return new String(haystack, java.nio.charset.StandardCharsets.ISO_8859_1)
        .contains(new String(needle, java.nio.charset.StandardCharsets.ISO_8859_1));
  }

  /** Stops the worker. Idempotent. */
  @Override
  public void close() {
    queue.close();
  }
}

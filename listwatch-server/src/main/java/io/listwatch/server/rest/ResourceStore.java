package io.listwatch.server.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.server.cacher.Cacher;
import io.listwatch.server.registry.ResourceDefinition;
import io.listwatch.server.validation.ObjectMetaValidator;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * kube's registry store for one resource: create, guaranteed update and delete against
 * storage, with the server-owned metadata and validation applied, and reads through the
 * resource's {@link Cacher}.
 *
 * <p>Stored values are the object's JSON without {@code metadata.resourceVersion}: the
 * revision is only known once storage commits, so it is stamped on the way out (here for
 * write responses, in the cacher for everything read).
 *
 * <p>Thread-safe; all operations are asynchronous.
 */
public final class ResourceStore {

  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 16;

  private final ResourceDefinition def;
  private final Storage storage;
  private final Cacher cacher;
  private final ObjectMetaDefaults defaults;
  private final NamespaceCheck namespaces;

  /** Tells whether a namespace exists (NamespaceLifecycle admission). */
  public interface NamespaceCheck {
    CompletableFuture<Boolean> exists(String namespace);
  }

  ResourceStore(ResourceDefinition def, Storage storage, Cacher cacher, ObjectMetaDefaults defaults,
      NamespaceCheck namespaces) {
    this.def = def;
    this.storage = storage;
    this.cacher = cacher;
    this.defaults = defaults;
    this.namespaces = namespaces;
  }

  public ResourceDefinition resource() {
    return def;
  }

  /** The server's clock. */
  Clock clock() {
    return defaults.clock();
  }

  public Cacher cacher() {
    return cacher;
  }

  /**
   * Creates {@code obj} in {@code namespace}; returns the stored object with its
   * resourceVersion. With {@code dryRun} everything is checked and nothing is stored.
   */
  CompletableFuture<ObjectNode> create(String namespace, ObjectNode obj, boolean dryRun) {
    return create(namespace, obj, dryRun, 0);
  }

  private CompletableFuture<ObjectNode> create(String namespace, ObjectNode original, boolean dryRun, int attempt) {
    ObjectNode obj = original.deepCopy();
    defaults.prepareForCreate(def, obj, namespace);
    Strategies.prepareForCreate(def, obj);
    ObjectMetaValidator.check(def, obj);
    String name = ObjectMetaDefaults.metadata(obj).path("name").asText();
    boolean generated = ObjectMetaDefaults.metadata(original).path("name").asText("").isEmpty();
    CompletableFuture<Boolean> nsOk = def.namespaced() ? namespaces.exists(namespace)
        : CompletableFuture.completedFuture(true);
    return nsOk.thenCompose(exists -> {
      if (!exists) {
        throw StatusException.notFound("", "namespaces", namespace);
      }
      return dryRun ? CompletableFuture.<KeyValue>completedFuture(null)
          : storage.create(def.storageKey(namespace, name), toBytes(obj));
    }).handle((kv, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(dryRun ? obj : stamp(obj, kv.modRevision()));
      }
      RuntimeException status = StorageErrors.toStatus(e, def, name);
      if (generated && attempt < MAX_ATTEMPTS && status instanceof StatusException se && se.code() == 409) {
        return create(namespace, original, dryRun, attempt + 1); // a generated name collided: try another
      }
      return CompletableFuture.<ObjectNode>failedFuture(status);
    }).thenCompose(f -> f);
  }

  /**
   * kube's GuaranteedUpdate: reads the current object, applies {@code change} (which may
   * throw a StatusException, e.g. a Conflict on a stale resourceVersion), and writes the
   * result guarded by the version it read, retrying when someone else wrote in between.
   * Returns the stored object; an update that changes nothing writes nothing.
   */
  CompletableFuture<ObjectNode> guaranteedUpdate(String namespace, String name, boolean statusSubresource,
      boolean dryRun, UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate(namespace, name, statusSubresource, dryRun, change, 0);
  }

  private CompletableFuture<ObjectNode> guaranteedUpdate(String namespace, String name, boolean status,
      boolean dryRun, UnaryOperator<ObjectNode> change, int attempt) {
    String key = def.storageKey(namespace, name);
    return storage.get(key).thenCompose(found -> {
      KeyValue kv = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), name));
      ObjectNode current = stamp(parse(kv.value()), kv.modRevision());
      ObjectNode updated = defaults.prepareForUpdate(def, change.apply(current.deepCopy()), current, namespace,
          name, status);
      ObjectMetaValidator.check(def, updated);
      ObjectMetaRules.checkNoNewFinalizersWhileDeleting(def, current, updated, name);
      // compare without the resourceVersion stamp() appended (no copy of the whole object:
      // current is this call's own, and taking the stamp off and back leaves it as it was)
      ObjectNode currentMeta = ObjectMetaDefaults.metadata(current);
      com.fasterxml.jackson.databind.JsonNode stamped = currentMeta.remove("resourceVersion");
      boolean unchanged = updated.equals(current);
      currentMeta.set("resourceVersion", stamped);
      if (unchanged) {
        return CompletableFuture.completedFuture(current);
      }
      if (dryRun) {
        return CompletableFuture.completedFuture(stamp(updated, kv.modRevision()));
      }
      return storage.update(key, toBytes(updated), kv.modRevision()).thenCompose(stored -> {
        ObjectNode result = stamp(updated, stored.modRevision());
        if (!isMarkedForDeletion(updated) || hasFinalizers(updated)) {
          return CompletableFuture.completedFuture(result);
        }
        // the last finalizer of an object being deleted is gone: the deletion completes.
        // A concurrent writer that got in between completes it itself, so its conflict is fine.
        return storage.delete(key, stored.modRevision()).handle((d, e) -> result);
      });
    }).handle((obj, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(obj);
      }
      if (isStorageConflict(e) && attempt < MAX_ATTEMPTS) {
        return guaranteedUpdate(namespace, name, status, dryRun, change, attempt + 1);
      }
      return CompletableFuture.<ObjectNode>failedFuture(StorageErrors.toStatus(e, def, name));
    }).thenCompose(f -> f);
  }

  /**
   * Deletes the object after {@code precondition} accepted its current state (it throws a
   * StatusException to refuse). An object with finalizers is only marked (deletionTimestamp)
   * and goes once an update removes its last finalizer, as in kube.
   */
  CompletableFuture<Deleted> delete(String namespace, String name, boolean dryRun,
      java.util.function.Consumer<ObjectNode> precondition) {
    Strategies.checkDelete(def, name);
    return delete(namespace, name, dryRun, precondition, 0);
  }

  /**
   * The outcome of a DELETE.
   *
   * @param object the deleted object as it last was, or the object now marked for deletion
   * @param gone true when the object is gone; false when finalizers defer the deletion
   */
  record Deleted(ObjectNode object, boolean gone) {
  }

  /**
   * kube's graceful deletion with finalizers: the object stays, with deletionTimestamp set,
   * until its last finalizer is removed (see {@link #guaranteedUpdate}).
   */
  private CompletableFuture<Deleted> markForDeletion(String key, KeyValue kv, ObjectNode current) {
    ObjectNode meta = ObjectMetaDefaults.metadata(current);
    if (meta.has("deletionTimestamp")) {
      return CompletableFuture.completedFuture(new Deleted(current, false)); // already being deleted
    }
    ObjectNode marked = defaults.markForDeletion(current);
    return storage.update(key, toBytes(marked), kv.modRevision())
        .thenApply(stored -> new Deleted(stamp(marked, stored.modRevision()), false));
  }

  private static boolean isMarkedForDeletion(ObjectNode obj) {
    return ObjectMetaRules.isMarkedForDeletion(obj);
  }

  private static boolean hasFinalizers(ObjectNode obj) {
    return !ObjectMetaRules.finalizers(obj).isEmpty();
  }

  private CompletableFuture<Deleted> delete(String namespace, String name, boolean dryRun,
      java.util.function.Consumer<ObjectNode> precondition, int attempt) {
    String key = def.storageKey(namespace, name);
    return storage.get(key).thenCompose(found -> {
      KeyValue kv = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), name));
      ObjectNode current = stamp(parse(kv.value()), kv.modRevision());
      precondition.accept(current);
      if (dryRun) {
        return CompletableFuture.completedFuture(new Deleted(current, !hasFinalizers(current)));
      }
      if (hasFinalizers(current)) {
        return markForDeletion(key, kv, current);
      }
      return storage.delete(key, kv.modRevision()).thenApply(deleted -> new Deleted(current, true));
    }).handle((obj, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(obj);
      }
      if (isStorageConflict(e) && attempt < MAX_ATTEMPTS) {
        return delete(namespace, name, dryRun, precondition, attempt + 1);
      }
      return CompletableFuture.<Deleted>failedFuture(StorageErrors.toStatus(e, def, name));
    }).thenCompose(f -> f);
  }

  /** Creates a cluster-scoped object on behalf of the server itself (startup). */
  public CompletableFuture<ObjectNode> createInternal(ObjectNode obj) {
    return create("", obj, false);
  }

  /** Creates an object in {@code namespace} ("" for cluster-scoped) on behalf of the server itself (startup). */
  public CompletableFuture<ObjectNode> createInternal(String namespace, ObjectNode obj) {
    return create(namespace, obj, false);
  }

  /**
   * Updates an object on behalf of the server itself (controllers, startup reconciliation):
   * kube's guaranteed update, without the request checks of {@link WriteAdmission}s.
   */
  public CompletableFuture<ObjectNode> updateInternal(String namespace, String name, UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate(namespace, name, false, false, change);
  }

  /** The object straight from storage (for admission checks that cannot wait for the cache). */
  CompletableFuture<Optional<KeyValue>> getFromStorage(String namespace, String name) {
    return storage.get(def.storageKey(namespace, name));
  }

  private static boolean isStorageConflict(Throwable e) {
    Throwable c = e;
    while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c instanceof StorageException se && se.code() == StorageException.Code.CONFLICT;
  }

  static ObjectNode parse(byte[] json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (IOException | ClassCastException e) {
      throw StatusException.internal("stored object is not a JSON object");
    }
  }

  static byte[] toBytes(ObjectNode obj) {
    try {
      return MAPPER.writeValueAsBytes(obj);
    } catch (IOException e) {
      throw StatusException.internal("cannot serialize object: " + e.getMessage());
    }
  }

  static ObjectNode stamp(ObjectNode obj, long resourceVersion) {
    ObjectMetaDefaults.metadata(obj).put("resourceVersion", Long.toString(resourceVersion));
    return obj;
  }
}

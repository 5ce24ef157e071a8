package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.registry.CustomResourceConversion;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.admission.AdmissionChain;
import io.listwatch.apiserver.admission.Warnings;
import io.listwatch.apiserver.request.AuditAnnotations;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.strategy.BuiltinStrategies;
import io.listwatch.apiserver.strategy.RestStrategy;
import io.listwatch.apiserver.validation.ObjectMetaValidator;
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
 * resource's {@link Cacher}. What differs per kind is the kind's {@link RestStrategy} (see
 * there for when each hook is called) and, for custom resources, their {@link WriteStrategy}.
 *
 * <p>Stored values are the object's JSON without {@code metadata.resourceVersion}: the
 * revision is only known once storage commits, so it is stamped on the way out (here for
 * write responses, in the cacher for everything read).
 *
 * <p>Thread-safe; all operations are asynchronous.
 */
public final class ResourceStore {

  static final ObjectMapper MAPPER = io.listwatch.api.JsonLimits.mapper();
  /** Logs each unsafe delete, kube's "Going to perform unsafe object deletion". */
  private static final org.slf4j.Logger UNSAFE_DELETES = org.slf4j.LoggerFactory.getLogger(ResourceStore.class);
  private static final int MAX_ATTEMPTS = 16;

  private final ResourceDefinition def;
  private final Storage storage;
  private final Cacher cacher;
  private final ObjectMetaDefaults defaults;
  /** The admission plug-ins every create and update passes, in kube's order. */
  private final AdmissionChain admission;
  /** The kind's own rules (kube's registry strategy and defaults); {@link BuiltinStrategies#NONE} when it has none. */
  private final RestStrategy restStrategy;
  /** The resource's decoding and validation beyond metadata (custom resources), or null. */
  private final WriteStrategy strategy;
  /** What the store does around its writes with state (a Service's allocations); {@link StoreHooks#NONE} by default. */
  private volatile StoreHooks hooks = StoreHooks.NONE;

  ResourceStore(ResourceDefinition def, Storage storage, Cacher cacher, ObjectMetaDefaults defaults,
      AdmissionChain admission) {
    this(def, storage, cacher, defaults, admission, null);
  }

  ResourceStore(ResourceDefinition def, Storage storage, Cacher cacher, ObjectMetaDefaults defaults,
      AdmissionChain admission, WriteStrategy strategy) {
    this.def = def;
    this.storage = storage;
    this.cacher = cacher;
    this.defaults = defaults;
    this.admission = admission;
    this.strategy = strategy;
    this.restStrategy = BuiltinStrategies.forResource(def);
  }

  /** Sets the resource's {@link StoreHooks}; call before the server accepts requests. */
  public void hooks(StoreHooks hooks) {
    this.hooks = java.util.Objects.requireNonNull(hooks);
  }

  /** The resource's {@link WriteStrategy}, or null (built-in kinds). */
  WriteStrategy strategy() {
    return strategy;
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
  /**
   * Whether {@code updated} is {@code current} but for the times of its managedFields entries:
   * kube writes nothing then (an apply or update that changes nothing leaves the object, and its
   * resourceVersion, as they were, however much later it comes). Compares without changing or
   * deeply copying either.
   */
  private static boolean onlyManagedFieldTimesDiffer(ObjectNode updated, ObjectNode current) {
    if (updated.size() != current.size()) {
      return false;
    }
    for (var e : updated.properties()) {
      if (!e.getKey().equals("metadata") && !e.getValue().equals(current.get(e.getKey()))) {
        return false;
      }
    }
    ObjectNode updatedMeta = ObjectMetaDefaults.metadata(updated);
    ObjectNode currentMeta = ObjectMetaDefaults.metadata(current);
    com.fasterxml.jackson.databind.JsonNode newFields = updatedMeta.path("managedFields");
    com.fasterxml.jackson.databind.JsonNode oldFields = currentMeta.path("managedFields");
    if (!newFields.isArray() || !oldFields.isArray() || newFields.size() != oldFields.size()
        || !withoutField(updatedMeta, "managedFields").equals(withoutField(currentMeta, "managedFields"))) {
      return false;
    }
    for (int i = 0; i < newFields.size(); i++) {
      if (!(newFields.get(i) instanceof ObjectNode n) || !(oldFields.get(i) instanceof ObjectNode o)
          || !withoutField(n, "time").equals(withoutField(o, "time"))) {
        return false;
      }
    }
    return true;
  }

  /** A shallow copy of {@code node} without {@code field} (its values are shared, not copied). */
  private static ObjectNode withoutField(ObjectNode node, String field) {
    ObjectNode out = node.objectNode();
    for (var e : node.properties()) {
      if (!e.getKey().equals(field)) {
        out.set(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /**
   * kube's validation of an object about to be stored: its metadata, then its kind's rules
   * ({@link RestStrategy#validate}), all in one 422 Invalid.
   */
  private void validate(ObjectNode obj, ObjectNode old, Warnings warnings) {
    validate(obj, old, warnings, restStrategy);
  }

  /** {@link #validate(ObjectNode, ObjectNode, Warnings)} with {@code strategy}'s rules (a subresource's). */
  private void validate(ObjectNode obj, ObjectNode old, Warnings warnings, RestStrategy strategy) {
    java.util.List<io.listwatch.api.Status.Cause> errors = new java.util.ArrayList<>(
        new ObjectMetaValidator().validate(def, obj));
    strategy.validate(obj, old, errors);
    if (!errors.isEmpty()) {
      com.fasterxml.jackson.databind.JsonNode name = obj.path("metadata").path("name");
      throw StatusException.invalid(def.group(), def.kind(), name.isTextual() ? name.textValue() : "", errors);
    }
    if (warnings != null) {
      strategy.warnings(obj, old, warnings::add);
    }
  }

  /** Creates an object on behalf of {@code user} (kube's order: see {@link AdmissionChain}). */
  CompletableFuture<ObjectNode> create(String namespace, ObjectNode obj, boolean dryRun, UserInfo user) {
    return create(namespace, obj, dryRun, user, new Warnings(), new AuditAnnotations());
  }

  /**
   * {@link #create(String, ObjectNode, boolean, UserInfo)}, the plug-ins' warnings recorded in
   * {@code warnings} and their audit annotations in {@code auditAnnotations}.
   */
  CompletableFuture<ObjectNode> create(String namespace, ObjectNode obj, boolean dryRun, UserInfo user,
      Warnings warnings, AuditAnnotations auditAnnotations) {
    return created(namespace, obj, dryRun, user, warnings, auditAnnotations).thenApply(Written::object);
  }

  /**
   * What a create or an update wrote: the object, and (unless a dry run, an update that changed
   * nothing, or a custom resource) the same object as the watch cache will hold and serve it,
   * handed to the cache at once ({@link Cacher#prime}) so that neither the cache nor the answer
   * encodes it again.
   */
  record Written(ObjectNode object, CachedObject cached) {
  }

  /** {@link #create(String, ObjectNode, boolean, UserInfo, Warnings, AuditAnnotations)}, with what the cache holds. */
  CompletableFuture<Written> created(String namespace, ObjectNode obj, boolean dryRun, UserInfo user,
      Warnings warnings, AuditAnnotations auditAnnotations) {
    return create(namespace, obj, dryRun, false, user, warnings, auditAnnotations, 0);
  }

  /** What a restored object keeps of its own metadata (see {@link #restoreInternal}). */
  private static final java.util.List<String> RESTORED_IDENTITY = java.util.List.of("uid", "creationTimestamp", "generation");

  private CompletableFuture<Written> create(String namespace, ObjectNode original, boolean dryRun, boolean restore,
      UserInfo user, Warnings warnings, AuditAnnotations auditAnnotations, int attempt) {
    ObjectNode obj = original.deepCopy();
    restStrategy.defaults(obj); // kube defaults as it decodes, before admission
    AdmissionAttributes attributes = new AdmissionAttributes(AdmissionAttributes.Operation.CREATE, def, "",
        namespace, ObjectMetaDefaults.metadata(obj).path("name").asText(""), obj, null, user, dryRun, warnings,
        auditAnnotations);
    return afterAdmission(admission.admit(attributes),
        () -> createAdmitted(namespace, original, obj, dryRun, restore, user, warnings, auditAnnotations, attempt));
  }

  /**
   * {@code next} once {@code admitted} completes: at once (on this thread, a refusal thrown as
   * before) when the mutating phase answered at once, else when it completes.
   */
  private static <T> CompletableFuture<T> afterAdmission(CompletableFuture<Void> admitted,
      java.util.function.Supplier<CompletableFuture<T>> next) {
    return admitted.isDone() && !admitted.isCompletedExceptionally() ? next.get()
        : admitted.thenCompose(v -> next.get());
  }

  /** The rest of a create, after the mutating phase of admission changed {@code obj}. */
  private CompletableFuture<Written> createAdmitted(String namespace, ObjectNode original, ObjectNode obj,
      boolean dryRun, boolean restore, UserInfo user, Warnings warnings, AuditAnnotations auditAnnotations,
      int attempt) {
    defaults.prepareForCreate(def, obj, namespace);
    if (def.clearsStatusOnCreate() && !restore) {
      obj.remove("status"); // what many of kube's PrepareForCreate do; the definition says which
    }
    restStrategy.prepareForCreate(obj, clock().now(), user);
    if (restore) {
      ObjectNode meta = ObjectMetaDefaults.metadata(obj);
      for (String kept : RESTORED_IDENTITY) {
        com.fasterxml.jackson.databind.JsonNode value = original.path("metadata").get(kept);
        if (value != null && !value.isNull()) {
          meta.set(kept, value.deepCopy());
        }
      }
      if (original.has("status")) {
        obj.set("status", original.get("status").deepCopy());
      }
    }
    validate(obj, null, warnings);
    if (strategy != null) {
      strategy.validate(obj, null, false);
    }
    String name = ObjectMetaDefaults.metadata(obj).path("name").asText();
    CompletableFuture<byte[]> storedForm = storedBytesAsync(obj); // checked readable for a dry run too
    boolean generated = ObjectMetaDefaults.metadata(original).path("name").asText("").isEmpty();
    AdmissionAttributes prepared = new AdmissionAttributes(AdmissionAttributes.Operation.CREATE, def, "", namespace,
        name, obj, null, user, dryRun, warnings, auditAnnotations);
    StoreHooks hooks = this.hooks;
    return storedForm.thenCompose(bytes -> hooks.beginCreate(obj, dryRun)).thenCompose(finish -> finishing(finish, () -> {
      byte[] stored = hooks == StoreHooks.NONE ? storedForm.join() : storedBytes(obj); // with what the hook filled in
      return admission.validate(prepared).thenCompose(admitted -> dryRun
          ? CompletableFuture.<KeyValue>completedFuture(null)
          : storage.create(def.storageKey(namespace, name), stored));
    })).handle((kv, e) -> {
      if (e == null) {
        if (dryRun) {
          return CompletableFuture.completedFuture(new Written(obj, null));
        }
        stamp(obj, kv.modRevision());
        if (CustomResourceConversion.remote(def)) {
          return readBack(storedForm.join(), kv.modRevision()).thenApply(stored -> new Written(stored, null));
        }
        CachedObject cached = cacher == null ? null : cacher.prime(kv.key(), kv.modRevision(), obj).orElse(null);
        return CompletableFuture.completedFuture(new Written(obj, cached));
      }
      RuntimeException status = StorageErrors.toStatus(e, def, name);
      if (generated && attempt < MAX_ATTEMPTS && status instanceof StatusException se && se.code() == 409) {
        // a generated name collided: try another
        return create(namespace, original, dryRun, restore, user, warnings, auditAnnotations, attempt + 1);
      }
      return CompletableFuture.<Written>failedFuture(status);
    }).thenCompose(f -> f);
  }

  /**
   * kube's GuaranteedUpdate: reads the current object, applies {@code change} (which may
   * throw a StatusException, e.g. a Conflict on a stale resourceVersion), and writes the
   * result guarded by the version it read, retrying when someone else wrote in between.
   * Returns the stored object; an update that changes nothing writes nothing.
   */
  CompletableFuture<ObjectNode> guaranteedUpdate(String namespace, String name, boolean statusSubresource,
      boolean dryRun, UserInfo user, UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate(namespace, name, statusSubresource ? Part.STATUS : Part.MAIN, dryRun, user, change);
  }

  /** Which part of an object an update may change. */
  enum Part {
    /** The main resource: everything but {@code status} (for types with a status subresource). */
    MAIN(""),
    /** {@code /status}: the status and metadata, as kube's status strategies allow. */
    STATUS("status"),
    /** Spec and status in one write, for the server's own subresources (a pod's binding). */
    WHOLE("binding"),
    /** A namespace's {@code /finalize}: its {@code spec.finalizers} and nothing else. */
    FINALIZE("finalize"),
    /**
     * A pod's {@code /ephemeralcontainers}: what the kind's {@link RestStrategy#subresource}
     * strategy of that name takes, prepared and validated by it.
     */
    EPHEMERAL_CONTAINERS("ephemeralcontainers"),
    /** A CertificateSigningRequest's {@code /approval}: as {@link #EPHEMERAL_CONTAINERS}, its own strategy. */
    APPROVAL("approval");

    /** The subresource admission sees. */
    final String subresource;

    Part(String subresource) {
      this.subresource = subresource;
    }

    /** Whether the kind's {@link RestStrategy#subresource} strategy of this name prepares and validates the write. */
    boolean ownStrategy() {
      return this == EPHEMERAL_CONTAINERS || this == APPROVAL;
    }
  }

  /** Whether this resource has the subresource {@code part} writes through its own strategy. */
  boolean serves(Part part) {
    return !part.ownStrategy() || restStrategy.subresource(part.subresource).isPresent();
  }

  /**
   * {@code written} reduced to what {@code part} may change of {@code live}, for a subresource
   * with its own strategy (so that the write's managedFields own only that); {@code written}
   * itself for the other parts.
   */
  ObjectNode writable(Part part, ObjectNode written, ObjectNode live) {
    if (!part.ownStrategy()) {
      return written;
    }
    ObjectNode out = written.deepCopy();
    subresourceStrategy(part).prepareForUpdate(out, live);
    return out;
  }

  private RestStrategy subresourceStrategy(Part part) {
    return restStrategy.subresource(part.subresource).orElseThrow(StatusException::pathNotFound);
  }

  /** {@link #guaranteedUpdate(String, String, boolean, boolean, UserInfo, UnaryOperator)} of the given part. */
  CompletableFuture<ObjectNode> guaranteedUpdate(String namespace, String name, Part part, boolean dryRun,
      UserInfo user, UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate(namespace, name, part, dryRun, user, change, new Warnings(),
        new AuditAnnotations(), 0).thenApply(Written::object);
  }

  /**
   * {@link #guaranteedUpdate(String, String, Part, boolean, UserInfo, UnaryOperator)}, the
   * plug-ins' warnings recorded in {@code warnings} and their audit annotations in
   * {@code auditAnnotations}.
   */
  CompletableFuture<ObjectNode> guaranteedUpdate(String namespace, String name, Part part, boolean dryRun,
      UserInfo user, UnaryOperator<ObjectNode> change, Warnings warnings, AuditAnnotations auditAnnotations) {
    return updated(namespace, name, part, dryRun, user, change, warnings, auditAnnotations).thenApply(Written::object);
  }

  /**
   * {@link #guaranteedUpdate(String, String, Part, boolean, UserInfo, UnaryOperator, Warnings, AuditAnnotations)},
   * with what the cache holds.
   */
  CompletableFuture<Written> updated(String namespace, String name, Part part, boolean dryRun, UserInfo user,
      UnaryOperator<ObjectNode> change, Warnings warnings, AuditAnnotations auditAnnotations) {
    return guaranteedUpdate(namespace, name, part, dryRun, user, change, warnings, auditAnnotations, 0);
  }

  private CompletableFuture<Written> guaranteedUpdate(String namespace, String name, Part part,
      boolean dryRun, UserInfo user, UnaryOperator<ObjectNode> change, Warnings warnings,
      AuditAnnotations auditAnnotations, int attempt) {
    String key = def.storageKey(namespace, name);
    return storage.get(key).thenCompose(this::servedEntry).thenCompose(found -> {
      ServedEntry entry = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), name));
      KeyValue kv = entry.kv();
      ObjectNode current = entry.object();
      ObjectNode changed = change.apply(current.deepCopy());
      // defaulted as decoded, before the generation compares the spec (a status write's spec is the stored one)
      restStrategy.defaults(changed);
      AdmissionAttributes attributes = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, def,
          part.subresource, namespace, name, changed, current, user, dryRun, warnings, auditAnnotations);
      return afterAdmission(admission.admit(attributes), () -> updateAdmitted(kv, key, namespace, name, part,
          dryRun, user, changed, current, warnings, auditAnnotations));
    }).handle((obj, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(obj);
      }
      if (isStorageConflict(e) && attempt < MAX_ATTEMPTS) {
        return guaranteedUpdate(namespace, name, part, dryRun, user, change, warnings, auditAnnotations,
            attempt + 1);
      }
      return CompletableFuture.<Written>failedFuture(StorageErrors.toStatus(e, def, name));
    }).thenCompose(f -> f);
  }

  /** The rest of an update, after the mutating phase of admission changed {@code changed}. */
  private CompletableFuture<Written> updateAdmitted(KeyValue kv, String key, String namespace, String name,
      Part part, boolean dryRun, UserInfo user, ObjectNode changed, ObjectNode current, Warnings warnings,
      AuditAnnotations auditAnnotations) {
    com.fasterxml.jackson.databind.JsonNode newStatus = changed.get("status");
    ObjectNode updated = defaults.prepareForUpdate(def, changed, current, namespace, name, part == Part.STATUS);
    switch (part) {
      case MAIN -> restStrategy.prepareForUpdate(updated, current);
      case STATUS -> restStrategy.prepareForStatusUpdate(updated, current);
      case WHOLE -> {
        if (newStatus != null) {
          updated.set("status", newStatus);
        }
        restStrategy.prepareForUpdate(updated, current);
      }
      case FINALIZE -> restStrategy.prepareForFinalize(updated, current);
      case EPHEMERAL_CONTAINERS, APPROVAL -> {
        // the subresource's strategy takes what it may change from the written object, its status too
        if (newStatus != null) {
          updated.set("status", newStatus);
        } else {
          updated.remove("status");
        }
        subresourceStrategy(part).prepareForUpdate(updated, current);
      }
    }
    if (strategy != null) {
      strategy.prepareForUpdate(updated, current, part == Part.STATUS);
    }
    if (part == Part.MAIN || part == Part.WHOLE) {
      // the server's own whole-object writes (a pod's binding) skip the user's update rules, as kube's do
      validate(updated, part == Part.WHOLE ? null : current, part == Part.WHOLE ? null : warnings);
    } else if (part.ownStrategy()) {
      validate(updated, current, warnings, subresourceStrategy(part));
    } else {
      ObjectMetaValidator.check(def, updated);
    }
    if (strategy != null) {
      strategy.validate(updated, current, part == Part.STATUS);
    }
    ObjectMetaRules.checkNoNewFinalizersWhileDeleting(def, current, updated, name);
    // compare without the resourceVersion stamp() appended (no copy of the whole object:
    // current is this call's own, and taking the stamp off and back leaves it as it was)
    ObjectNode currentMeta = ObjectMetaDefaults.metadata(current);
    com.fasterxml.jackson.databind.JsonNode stamped = currentMeta.remove("resourceVersion");
    boolean unchanged = updated.equals(current) || onlyManagedFieldTimesDiffer(updated, current);
    currentMeta.set("resourceVersion", stamped);
    if (unchanged) {
      return CompletableFuture.completedFuture(new Written(current, null));
    }
    // checked readable for a dry run too, before anything is allocated
    CompletableFuture<byte[]> storedForm = storedBytesAsync(updated);
    AdmissionAttributes prepared = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, def,
        part.subresource, namespace, name, updated, current, user, dryRun, warnings, auditAnnotations);
    StoreHooks hooks = part == Part.MAIN || part == Part.WHOLE ? this.hooks : StoreHooks.NONE;
    return storedForm.thenCompose(checked -> hooks.beginUpdate(updated, current, dryRun)).thenCompose(finish -> finishing(finish, () -> {
      byte[] bytes = hooks == StoreHooks.NONE ? storedForm.join() : storedBytes(updated); // with what the hook filled in
      return admission.validate(prepared).thenCompose(admitted -> dryRun
          ? CompletableFuture.completedFuture(new Written(stamp(updated, kv.modRevision()), null))
          : storage.update(key, bytes, kv.modRevision()).thenCompose(stored -> {
            stamp(updated, stored.modRevision());
            if (CustomResourceConversion.remote(def)) {
              return readBack(bytes, stored.modRevision()).thenApply(back -> new Written(back, null));
            }
            // its event need not decode it again, nor the answer encode it
            CachedObject cached = cacher == null ? null : cacher.prime(key, stored.modRevision(), updated).orElse(null);
            return CompletableFuture.completedFuture(new Written(updated, cached));
          }));
    })).thenCompose(result -> {
      if (dryRun || !Deletion.readyToRemove(restStrategy, updated)) {
        return CompletableFuture.completedFuture(result);
      }
      // the last finalizer of an object being deleted (with no grace left) is gone: the deletion completes.
      // A concurrent writer that got in between completes it itself, so its conflict is fine.
      long revision = Long.parseLong(ObjectMetaDefaults.metadata(result.object()).path("resourceVersion").asText());
      return storage.delete(key, revision).handle((d, e) -> e == null
          ? this.hooks.afterDelete(result.object()).thenApply(released -> result)
          : CompletableFuture.completedFuture(result)).thenCompose(f -> f);
    });
  }

  /**
   * Deletes an object as kube's registry store does (see {@link Deletion} for the rules): checks
   * the preconditions, then removes it, or marks it (deletionTimestamp) when finalizers, a
   * grace period (pods), a propagation policy that waits (Orphan, Foreground) or a namespace's
   * finalizers defer the removal.
   */
  CompletableFuture<Deleted> delete(String namespace, String name, DeleteOptions options) {
    restStrategy.checkDelete(name);
    return delete(namespace, name, options, null, 0);
  }

  /**
   * {@link #delete(String, String, DeleteOptions)} on behalf of {@code user}, through admission
   * (kube's delete validation): the plug-ins that handle deletes see the stored object as
   * {@code oldObject}, after the preconditions are checked and unless the delete changes nothing.
   */
  CompletableFuture<Deleted> delete(String namespace, String name, DeleteOptions options, UserInfo user,
      Warnings warnings, AuditAnnotations auditAnnotations) {
    restStrategy.checkDelete(name);
    return delete(namespace, name, options, new Deleter(user, warnings, auditAnnotations), 0);
  }

  /** Who deletes, for admission; none for the server's own deletes (timers, eviction), which skip it. */
  private record Deleter(UserInfo user, Warnings warnings, AuditAnnotations auditAnnotations) {
  }

  /**
   * The outcome of a DELETE.
   *
   * @param object the deleted object as it last was, or the object now marked for deletion
   * @param gone true when the object is gone; false when finalizers or a grace period defer it
   */
  public record Deleted(ObjectNode object, boolean gone) {
  }

  private CompletableFuture<Deleted> delete(String namespace, String name, DeleteOptions options, Deleter deleter,
      int attempt) {
    String key = def.storageKey(namespace, name);
    return storage.get(key).thenCompose(this::servedEntry).thenCompose(found -> {
      ServedEntry entry = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), name));
      KeyValue kv = entry.kv();
      ObjectNode current = entry.object();
      Deletion.checkPreconditions(def, name, current, options);
      Deletion.Plan plan = Deletion.plan(restStrategy, current, options, clock().now());
      if (deleter == null || (plan.marked() != null && plan.marked().equals(current))) {
        return deleteAdmitted(key, namespace, name, options, kv, current, plan);
      }
      AdmissionAttributes attributes = new AdmissionAttributes(AdmissionAttributes.Operation.DELETE, def, "",
          namespace, name, null, current, deleter.user(), options.dryRun(), deleter.warnings(),
          deleter.auditAnnotations());
      return afterAdmission(admission.admit(attributes), () -> admission.validate(attributes))
          .thenCompose(admitted -> deleteAdmitted(key, namespace, name, options, kv, current, plan));
    }).handle((obj, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(obj);
      }
      if (isStorageConflict(e) && attempt < MAX_ATTEMPTS) {
        return delete(namespace, name, options, deleter, attempt + 1);
      }
      return CompletableFuture.<Deleted>failedFuture(StorageErrors.toStatus(e, def, name));
    }).thenCompose(f -> f);
  }

  /**
   * kube's unsafe delete of a corrupt object (the delete option
   * {@code ignoreStoreReadErrorWithClusterBreakingPotential}): removes the object at
   * {@code namespace/name} only if its stored value is one no reader takes (not a JSON object
   * within {@link io.listwatch.api.JsonLimits}), and then without preconditions, finalizers,
   * grace period, admission or this resource's after-delete hooks, as kube's corrupt object
   * deleter skips them. The cacher never held such an object, so no watcher is told of it.
   *
   * @throws StatusException (in the future) 422 naming the option when the object can be read
   *     or is not there (kube's answer, its kind the resource): only an ordinary delete removes
   *     a readable object
   */
  CompletableFuture<Void> deleteUnreadable(String namespace, String name) {
    return deleteUnreadable(def.storageKey(namespace, name), name, 0);
  }

  private CompletableFuture<Void> deleteUnreadable(String key, String name, int attempt) {
    return storage.get(key).thenCompose(found -> {
      if (found.isEmpty() || readable(found.get().value())) {
        throw StatusException.invalid(def.group(), def.plural(), name, java.util.List.of(new io.listwatch.api.Status.Cause(
            io.listwatch.api.Reasons.FIELD_VALUE_INVALID, "Invalid value: true: is exclusively used to delete corrupt "
            + "object(s), try again by removing this option", DeleteOptions.IGNORE_STORE_READ_ERROR)));
      }
      UNSAFE_DELETES.warn("unsafe delete of {} at revision {}: its stored value cannot be read", key,
          found.get().modRevision());
      return storage.delete(key, found.get().modRevision()).thenApply(deleted -> (Void) null);
    }).handle((v, e) -> {
      if (e == null) {
        return CompletableFuture.<Void>completedFuture(null);
      }
      if (isStorageConflict(e) && attempt < MAX_ATTEMPTS) { // written meanwhile: read again
        return deleteUnreadable(key, name, attempt + 1);
      }
      return CompletableFuture.<Void>failedFuture(StorageErrors.toStatus(e, def, name));
    }).thenCompose(f -> f);
  }

  /** Whether a reader takes {@code stored}: a JSON object within the limits every reader applies. */
  private static boolean readable(byte[] stored) {
    try {
      parse(stored);
      return true;
    } catch (StatusException unreadable) {
      return false;
    }
  }

  /** The rest of a delete, once admitted: removes or marks the object as {@code plan} says. */
  private CompletableFuture<Deleted> deleteAdmitted(String key, String namespace, String name, DeleteOptions options,
      KeyValue kv, ObjectNode current, Deletion.Plan plan) {
    if (plan.marked() == null) {
      if (options.dryRun()) {
        return CompletableFuture.completedFuture(new Deleted(current, true));
      }
      return storage.delete(key, kv.modRevision())
          .thenCompose(deleted -> hooks.afterDelete(current))
          .thenApply(released -> new Deleted(current, true));
    }
    if (options.dryRun() || plan.marked().equals(current)) {
      return CompletableFuture.completedFuture(new Deleted(plan.marked(), false));
    }
    ObjectNode marked = plan.marked();
    ObjectMetaDefaults.metadata(marked).remove("resourceVersion");
    return storedBytesAsync(marked).thenCompose(bytes -> storage.update(key, bytes, kv.modRevision())).thenApply(stored -> {
      if (plan.graceSeconds() > 0) {
        String uid = ObjectMetaDefaults.metadata(marked).path("uid").asText();
        clock().schedule(java.time.Duration.ofSeconds(plan.graceSeconds()),
            () -> delete(namespace, name, DeleteOptions.immediate(uid), null, 0));
      }
      return new Deleted(stamp(marked, stored.modRevision()), false);
    });
  }

  /**
   * Deletes every object {@code options} select in {@code namespace} ("" for all) with
   * {@code deleteOptions}, one after the other, each through admission on behalf of {@code user};
   * returns what each delete answered (objects still being deleted as marked). Objects gone
   * meanwhile are skipped.
   */
  CompletableFuture<java.util.List<ObjectNode>> deleteCollection(String namespace,
      io.listwatch.api.ListOptions options, DeleteOptions deleteOptions, UserInfo user, Warnings warnings,
      AuditAnnotations auditAnnotations) {
    return cacher.list(namespace, options).thenCompose(listed -> {
      java.util.List<ObjectNode> deleted = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
      for (var item : listed.items()) {
        chain = chain.thenCompose(v -> delete(item.namespace(), item.name(), deleteOptions, user, warnings,
            auditAnnotations).handle((d, e) -> {
          if (e == null) {
            deleted.add(d.object());
            return null;
          }
          Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
          if (c instanceof StatusException se && se.code() == 404) {
            return null;
          }
          throw c instanceof RuntimeException r ? r : new java.util.concurrent.CompletionException(c);
        }));
      }
      return chain.thenApply(v -> java.util.List.copyOf(deleted));
    });
  }

  /**
   * Schedules the removal of every object whose grace period was running when the server last
   * stopped (a pod deleted with a grace period): at its {@code deletionTimestamp}, or at once if
   * that has passed. Call once at start, after the cache has loaded.
   */
  public void resumeGracePeriods() {
    byte[] needle = "\"deletionGracePeriodSeconds\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    // from storage: a consistent read through the cache could wait for a progress notification
    for (KeyValue kv : storage.range(io.listwatch.storage.RangeRequest.prefix(def.storagePrefix())).join().kvs()) {
      if (!containsBytes(kv.value(), needle)) {
        continue;
      }
      ObjectNode meta;
      try {
        meta = ObjectMetaDefaults.metadata(parse(kv.value()));
      } catch (StatusException unreadable) {
        continue; // the cacher reports it; nothing of it can be served or deleted by grace period
      }
      if (meta.path("deletionGracePeriodSeconds").asLong(0) <= 0 || !meta.hasNonNull("deletionTimestamp")) {
        continue;
      }
      java.time.Instant due = java.time.Instant.parse(meta.path("deletionTimestamp").asText());
      java.time.Duration delay = java.time.Duration.between(clock().now(), due);
      String uid = meta.path("uid").asText();
      String namespace = meta.path("namespace").asText("");
      String name = meta.path("name").asText();
      clock().schedule(delay.isNegative() ? java.time.Duration.ZERO : delay,
          () -> delete(namespace, name, DeleteOptions.immediate(uid), null, 0));
    }
  }

  private static boolean containsBytes(byte[] haystack, byte[] needle) {
    // Latin-1 maps each byte to one char, so this is a byte search
    return new String(haystack, java.nio.charset.StandardCharsets.ISO_8859_1)
        .contains(new String(needle, java.nio.charset.StandardCharsets.ISO_8859_1));
  }

  /**
   * The object as storage has it now (with its resourceVersion), for the server's controllers:
   * unlike a consistent read through the cache, it never waits for the cache to catch up.
   */
  public CompletableFuture<Optional<ObjectNode>> getInternal(String namespace, String name) {
    return storage.get(def.storageKey(namespace, name)).thenCompose(this::servedEntry)
        .thenApply(found -> found.map(ServedEntry::object));
  }

  /** Every object in {@code namespace} ("" for all) as storage has it now; see {@link #getInternal}. */
  public CompletableFuture<java.util.List<ObjectNode>> listInternal(String namespace) {
    String prefix = namespace.isEmpty() ? def.storagePrefix() : def.storagePrefix(namespace);
    return storage.range(io.listwatch.storage.RangeRequest.prefix(prefix)).thenCompose(r -> {
      java.util.List<ObjectNode> stored = r.kvs().stream().map(v -> stamp(parse(v.value()), v.modRevision())).toList();
      return CustomResourceConversion.toServedAsync(def, stored)
          .thenApply(served -> served.stream().map(def.conversion()::toServed).toList());
    });
  }

  /** Deletes an object on behalf of the server itself (garbage collector, namespace controller, timers). */
  public CompletableFuture<Deleted> deleteInternal(String namespace, String name, DeleteOptions options) {
    return delete(namespace, name, options, null, 0);
  }

  /** Updates an object's {@code /status} on behalf of the server itself (controllers). */
  public CompletableFuture<ObjectNode> updateStatusInternal(String namespace, String name,
      UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate(namespace, name, Part.STATUS, false, AdmissionAttributes.SERVER, change, new Warnings(),
        new AuditAnnotations(), 0).thenApply(Written::object);
  }

  /** Creates a cluster-scoped object on behalf of the server itself (startup). */
  public CompletableFuture<ObjectNode> createInternal(ObjectNode obj) {
    return create("", obj, false, AdmissionAttributes.SERVER);
  }

  /** Creates an object in {@code namespace} ("" for cluster-scoped) on behalf of the server itself (startup). */
  public CompletableFuture<ObjectNode> createInternal(String namespace, ObjectNode obj) {
    return create(namespace, obj, false, AdmissionAttributes.SERVER);
  }

  /**
   * Restores an object that existed before this server saw it (a test's fixtures, a backup):
   * created as {@link #createInternal} creates, with every default and check, except that it
   * keeps the {@code uid}, {@code creationTimestamp}, {@code generation} and {@code status} it
   * carries, so that references to it (owner references by uid) still hold. Its
   * resourceVersion is new.
   */
  public CompletableFuture<ObjectNode> restoreInternal(String namespace, ObjectNode obj) {
    return create(namespace, obj, false, true, AdmissionAttributes.SERVER, new Warnings(),
        new AuditAnnotations(), 0).thenApply(Written::object);
  }

  /**
   * Updates an object on behalf of the server itself (controllers, startup reconciliation):
   * kube's guaranteed update, without the request checks of {@link WriteAdmission}s.
   */
  public CompletableFuture<ObjectNode> updateInternal(String namespace, String name, UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate(namespace, name, Part.MAIN, false, AdmissionAttributes.SERVER, change, new Warnings(),
        new AuditAnnotations(), 0).thenApply(Written::object);
  }

  /** A namespace's {@code /finalize} by the server itself: only {@code spec.finalizers} changes. */
  public CompletableFuture<ObjectNode> finalizeInternal(String name, UnaryOperator<ObjectNode> change) {
    return guaranteedUpdate("", name, Part.FINALIZE, false, AdmissionAttributes.SERVER, change, new Warnings(),
        new AuditAnnotations(), 0).thenApply(Written::object);
  }

  /** The object straight from storage (for admission checks that cannot wait for the cache). */
  CompletableFuture<Optional<KeyValue>> getFromStorage(String namespace, String name) {
    return storage.get(def.storageKey(namespace, name));
  }

  /**
   * Runs {@code write} (which may throw) and calls {@code finish} once with whether it
   * succeeded; the result is {@code write}'s.
   */
  private static <T> CompletableFuture<T> finishing(StoreHooks.Finish finish,
      java.util.function.Supplier<CompletableFuture<T>> write) {
    CompletableFuture<T> written;
    try {
      written = write.get();
    } catch (RuntimeException e) {
      written = CompletableFuture.failedFuture(e);
    }
    return written.whenComplete((v, e) -> finish.finish(e == null));
  }

  private static boolean isStorageConflict(Throwable e) {
    Throwable c = e;
    while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c instanceof StorageException se && se.code() == StorageException.Code.CONFLICT;
  }

  /** A stored entry and its object as this resource serves it, with its resourceVersion. */
  private record ServedEntry(KeyValue kv, ObjectNode object) {
  }

  /**
   * The stored entry as this resource serves it (a custom resource's version; see
   * {@link CustomResourceConversion}): at once, unless a conversion webhook is asked.
   */
  private CompletableFuture<Optional<ServedEntry>> servedEntry(Optional<KeyValue> found) {
    if (found.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    KeyValue kv = found.get();
    ObjectNode stored;
    try {
      stored = (ObjectNode) MAPPER.readTree(kv.value());
    } catch (IOException | ClassCastException e) { // kube's corrupt object: 500 naming it
      throw StatusException.internal(io.listwatch.apiserver.cacher.UnreadableObjectException.describe(kv.key(),
          kv.modRevision(), e.getMessage()));
    }
    return servedAsync(stored).thenApply(o -> Optional.of(new ServedEntry(kv, stamp(o, kv.modRevision()))));
  }

  /**
   * A stored value as this resource serves it: a custom resource in its version (see
   * {@link CustomResourceConversion}), a built-in served in several versions in this one.
   */
  private CompletableFuture<ObjectNode> servedAsync(ObjectNode stored) {
    return CustomResourceConversion.toServedAsync(def, stored).thenApply(def.conversion()::toServed);
  }

  /**
   * What kube answers a write through a conversion webhook: the object as stored, converted back
   * to this resource's version (so the answer shows what a read will).
   */
  private CompletableFuture<ObjectNode> readBack(byte[] stored, long resourceVersion) {
    return servedAsync(parse(stored)).thenApply(o -> stamp(o, resourceVersion));
  }

  /**
   * {@link #storedBytes}, without waiting for a conversion webhook: at once (a refusal thrown
   * on this thread) unless one is asked.
   */
  private CompletableFuture<byte[]> storedBytesAsync(ObjectNode obj) {
    if (!CustomResourceConversion.remote(def)) {
      return CompletableFuture.completedFuture(storedBytes(obj));
    }
    checkDepth(obj);
    return CustomResourceConversion.toStorageAsync(def, obj).thenApply(form -> checkedBytes(obj, form));
  }

  /**
   * The bytes to store for {@code obj} (a custom resource in its storage version), which every
   * reader can read back ({@link JsonLimits}): what the server acknowledges it can always serve
   * again, after a restart too.
   *
   * @throws StatusException 422 Invalid naming the field that no reader would take
   */
  private byte[] storedBytes(ObjectNode obj) {
    checkDepth(obj);
    // a built-in served in several versions is stored in its storage version too
    return checkedBytes(obj, def.conversion().toStorage(CustomResourceConversion.toStorage(def, obj)));
  }

  private void checkDepth(ObjectNode obj) {
    java.util.Optional<io.listwatch.api.Status.Cause> tooDeep = JsonLimits.depthViolation(obj);
    if (tooDeep.isPresent()) {
      String name = ObjectMetaDefaults.metadata(obj).path("name").asText("");
      throw StatusException.invalid(def.group(), def.kind(), name, java.util.List.of(tooDeep.get()));
    }
  }

  /** The bytes of {@code storedForm} (the stored form of {@code obj}), checked readable. */
  private byte[] checkedBytes(ObjectNode obj, ObjectNode storedForm) {
    String name = ObjectMetaDefaults.metadata(obj).path("name").asText("");
    byte[] bytes = toBytes(storedForm);
    java.util.Optional<io.listwatch.api.Status.Cause> unreadable = JsonLimits.needsCheck(storedForm, bytes)
        ? JsonLimits.violation(bytes) : java.util.Optional.empty();
    if (unreadable.isPresent()) {
      io.listwatch.api.Status.Cause cause = unreadable.get();
      if (cause.field() != null && cause.field().startsWith("metadata.managedFields")) {
        // the field manager recorded what the client wrote (a key in k:{...}): name the client's field
        ObjectNode withoutManaged = obj.deepCopy();
        ObjectMetaDefaults.metadata(withoutManaged).remove("managedFields");
        cause = JsonLimits.violation(toBytes(withoutManaged)).orElse(cause);
      }
      throw StatusException.invalid(def.group(), def.kind(), name, java.util.List.of(cause));
    }
    return bytes;
  }

  static ObjectNode parse(byte[] json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (IOException | ClassCastException e) {
      throw StatusException.internal("stored object is not a readable JSON object: " + e.getMessage());
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

package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.FieldSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchSchemas;
import io.listwatch.api.patch.Patcher;
import io.listwatch.apiserver.admission.Warnings;
import io.listwatch.apiserver.cacher.CacheWatcher;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.WatchSink;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The verbs of one resource: decodes the request, calls the {@link ResourceStore} or the
 * {@link Cacher}, and shapes the answer as kube-apiserver does. Thread-safe (stateless
 * beyond its collaborators).
 */
public final class ResourceHandler {

  private final ResourceDefinition def;
  private final ResourceStore store;
  /** Checks registered with {@link ServedResources#admission}; set before the server accepts requests. */
  private volatile java.util.List<WriteAdmission> admissions = java.util.List.of();

  /** The catalogue serving this handler: the server's authorizer and feature gates, read per request. */
  private final ServedResources served;

  ResourceHandler(ResourceStore store, ServedResources served) {
    this.def = store.resource();
    this.store = store;
    this.served = served;
  }

  /** Checks JSON bodies for unknown and duplicate fields, or null; set before the server accepts requests. */
  private volatile io.listwatch.apiserver.openapi.FieldValidation fieldValidation;

  void fieldValidation(io.listwatch.apiserver.openapi.FieldValidation validation) {
    this.fieldValidation = validation;
  }

  /** The request's {@code fieldValidation} directive; a bad value is refused before anything changes. */
  private static io.listwatch.apiserver.openapi.FieldValidation.Directive directive(ApiRequest request,
      String optionsKind) {
    return io.listwatch.apiserver.openapi.FieldValidation.Directive.parse(request.param("fieldValidation"), optionsKind);
  }

  /** Applies {@code fieldValidation} to a create or update body (pruning unknown fields); the warnings to send. */
  private java.util.List<String> validateFields(ApiRequest request, ObjectNode object, String optionsKind) {
    var d = directive(request, optionsKind);
    // a YAML body is checked as the JSON it reads as (so its repeated keys are not reported)
    byte[] json = request.mediaType().equals(JsonBodies.YAML_MEDIA_TYPE)
        ? ResourceStore.toBytes(object) : request.body();
    WriteStrategy strategy = store.strategy();
    if (strategy != null) {
      return strategy.decode(d, json, object, false);
    }
    io.listwatch.apiserver.openapi.FieldValidation v = fieldValidation;
    if (v == null || request.mediaType().equals(KubeProtobuf.MEDIA_TYPE)) {
      return java.util.List.of();
    }
    return v.checkObject(d, json, object);
  }

  /** The built-in kind's field manager, made on first use; custom resources use their strategy's. */
  private volatile io.listwatch.api.apply.FieldManager builtinFieldManager;

  /** The field manager of this resource's writes (server-side apply and ordinary writes alike). */
  private io.listwatch.api.apply.FieldManager fieldManager() {
    WriteStrategy strategy = store.strategy();
    if (strategy != null) {
      return strategy.fieldManager();
    }
    io.listwatch.api.apply.FieldManager fm = builtinFieldManager;
    if (fm == null) {
      fm = ServerSideApply.fieldManager(def);
      builtinFieldManager = fm; // racing first uses make equal managers: any one will do
    }
    return fm;
  }

  void addAdmission(WriteAdmission admission) {
    java.util.List<WriteAdmission> next = new java.util.ArrayList<>(admissions);
    next.add(admission);
    admissions = java.util.List.copyOf(next);
  }

  private void admit(ApiRequest request, String namespace, ObjectNode object, ObjectNode old) {
    for (WriteAdmission a : admissions) {
      a.admit(request.user(), namespace, object, old);
    }
  }

  ResourceDefinition resource() {
    return def;
  }

  /** Whether a watch of this resource may start now (not while the server shuts down). */
  boolean acceptsWatches() {
    return store.cacher().acceptsWatches();
  }

  CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (def.namespaced() && info.namespace().isEmpty() && !info.name().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    ResourceStore.Part part = part(info);
    String m = request.method();
    if (info.name().isEmpty()) {
      if (ApiRequest.GET.equals(m)) {
        return list(info, request);
      }
      if (ApiRequest.POST.equals(m)) {
        if (def.namespaced() && info.namespace().isEmpty()) {
          throw StatusException.pathNotFound();
        }
        ObjectNode created = body(request);
        java.util.List<String> warnings = validateFields(request, created, "CreateOptions");
        SecretConversion.convertWritten(def, created);
        admit(request, info.namespace(), created, null);
        ObjectNode owned = UpdateManagers.record(def, fieldManager(), UpdateManagers.manager(request), null, created,
            "", store.clock().now());
        Warnings admitted = new Warnings();
        return store.created(info.namespace(), owned, request.isDryRun(), request.user(), admitted,
            request.auditAnnotations())
            .thenApply(c -> answer(201, c)
                .withWarnings(warnings).withWarnings(admitted.list()));
      }
      if (ApiRequest.DELETE.equals(m)) {
        return deleteCollection(info, request);
      }
      throw StatusException.methodNotAllowed();
    }
    if (ApiRequest.GET.equals(m)) {
      return get(info, request);
    }
    if (ApiRequest.PUT.equals(m)) {
      return update(info, request, part);
    }
    if (ApiRequest.PATCH.equals(m)) {
      return patch(info, request, part);
    }
    if (ApiRequest.DELETE.equals(m) && part == ResourceStore.Part.MAIN) {
      return delete(info, request);
    }
    throw StatusException.methodNotAllowed();
  }

  /**
   * The part of the object a request writes: the main resource, {@code /status} (kinds with a
   * status), or a subresource with its own strategy (a pod's {@code /ephemeralcontainers}, whose
   * body and answer are the whole object too); 404 for any other subresource.
   */
  private ResourceStore.Part part(RequestInfo info) {
    String subresource = info.subresource();
    if (subresource.isEmpty()) {
      return ResourceStore.Part.MAIN;
    }
    if (subresource.equals(ResourceStore.Part.STATUS.subresource) && def.hasStatus()) {
      return ResourceStore.Part.STATUS;
    }
    for (ResourceStore.Part own : ResourceStore.Part.values()) {
      if (own.ownStrategy() && subresource.equals(own.subresource) && def.subresources().containsKey(subresource)
          && store.serves(own)) {
        return own;
      }
    }
    throw StatusException.pathNotFound();
  }

  private CompletableFuture<ApiResponse> get(RequestInfo info, ApiRequest request) {
    ListOptions options = ListOptions.parse(request.query());
    return store.cacher().get(info.namespace(), info.name(), options).thenApply(found -> {
      var obj = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), info.name()));
      return new ApiResponse(200, new ApiResponse.CachedBody(def, obj));
    });
  }

  private CompletableFuture<ApiResponse> list(RequestInfo info, ApiRequest request) {
    ListOptions options = listOptions(request);
    return store.cacher().list(info.namespace(), options).thenApply(r -> new ApiResponse(200,
        new ApiResponse.ListBody(def, r.resourceVersion(), r.continueToken(),
            r.remainingItemCount(), r.items())));
  }

  /** Parses and checks the options of a list or watch, including the field selector's fields. */
  ListOptions listOptions(ApiRequest request) {
    ListOptions options = ListOptions.parse(request.query());
    FieldSelector fields = options.fieldSelector();
    for (String f : fields.fields()) {
      if (!def.selectableFieldNames().contains(f)) {
        throw FieldSelector.unsupportedField(f, def.selectableFieldNames());
      }
    }
    return options;
  }

  /** Starts a watch; see {@link Cacher#watch}. */
  CompletableFuture<CacheWatcher> watch(RequestInfo info, ListOptions options, WatchSink sink) {
    long timeoutSeconds = options.timeoutSeconds() != null && options.timeoutSeconds() > 0
        ? options.timeoutSeconds()
        : ThreadLocalRandom.current().nextLong(1800, 3600); // kube: min-request-timeout 1800 s, x [1, 2)
    long deadline = store.clock().nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    return store.cacher().watch(info.namespace(), options, sink, deadline);
  }

  private CompletableFuture<ApiResponse> update(RequestInfo info, ApiRequest request, ResourceStore.Part part) {
    ObjectNode body = body(request);
    java.util.List<String> warnings = validateFields(request, body, "UpdateOptions");
    SecretConversion.convertWritten(def, body);
    String rv = ObjectMetaDefaults.metadata(body).path("resourceVersion").asText("");
    Warnings admitted = new Warnings();
    return store.updated(info.namespace(), info.name(), part, request.isDryRun(), request.user(), current -> {
      checkResourceVersion(rv, current, info.name());
      ObjectNode updated = body.deepCopy();
      admit(request, info.namespace(), updated, current);
      return UpdateManagers.record(def, fieldManager(), UpdateManagers.manager(request), current,
          store.writable(part, updated, current), part.subresource, store.clock().now());
    }, admitted, request.auditAnnotations()).thenApply(u -> answer(200, u).withWarnings(warnings)
        .withWarnings(admitted.list()));
  }

  /**
   * The answer to a write: the cache's form of what it wrote when there is one (its bytes
   * are what a GET answers, encoded once for both), else the object.
   */
  private ApiResponse answer(int code, ResourceStore.Written w) {
    return w.cached() != null ? new ApiResponse(code, new ApiResponse.CachedBody(def, w.cached()))
        : code == 201 ? ApiResponse.created(w.object()) : ApiResponse.ok(w.object());
  }

  /**
   * PATCH: the Content-Type picks the patch type (JSON Patch, merge patch, or strategic merge
   * for built-in kinds). The patch is applied to the current object inside the guaranteed
   * update, so a retry after a concurrent write applies it again to the newer object. A
   * {@code metadata.resourceVersion} the patch sets (any patch type) must match the current
   * one, as kube's update precondition; a patch that removes it applies unconditionally.
   */
  private CompletableFuture<ApiResponse> patch(RequestInfo info, ApiRequest request, ResourceStore.Part part) {
    WriteStrategy strategy = store.strategy();
    boolean apply = ServerSideApply.isApply(request.mediaType()) && (fieldValidation != null || strategy != null);
    ServerSideApply.checkOptions(request, apply);
    if (apply) {
      return apply(info, request, part, 0);
    }
    var schema = PatchSchemas.forKind(def.group(), def.version(), def.kind());
    Patcher.patchType(request.mediaType(), schema); // an unserved patch type is 415 whatever its body
    Patcher patcher = Patcher.forRequest(request.mediaType(), JsonBodies.parse(request.body()), schema);
    var directive = directive(request, "PatchOptions");
    io.listwatch.apiserver.openapi.FieldValidation validation = fieldValidation;
    // a JSON Patch's body is a list of operations, not the object: only the result is checked
    byte[] body = io.listwatch.api.patch.PatchType.JSON_PATCH.mediaType().equals(request.mediaType()) ? null : request.body();
    var warnings = new java.util.concurrent.atomic.AtomicReference<java.util.List<String>>(java.util.List.of());
    Warnings admitted = new Warnings();
    return store.updated(info.namespace(), info.name(), part, request.isDryRun(), request.user(), current -> {
      ObjectNode patched = patcher.applyTo(current);
      SecretConversion.convertWritten(def, patched);
      checkResourceVersion(ObjectMetaDefaults.metadata(patched).path("resourceVersion").asText(""), current,
          info.name());
      if (strategy != null) {
        warnings.set(strategy.decode(directive, body, patched, true));
      } else if (validation != null) {
        warnings.set(validation.checkPatched(directive, body, patched));
      }
      admit(request, info.namespace(), patched, current);
      return UpdateManagers.record(def, fieldManager(), UpdateManagers.manager(request), current,
          store.writable(part, patched, current), part.subresource, store.clock().now());
    }, admitted, request.auditAnnotations()).thenApply(u -> answer(200, u).withWarnings(warnings.get())
        .withWarnings(admitted.list()));
  }

  /**
   * Server-side apply ({@link ServerSideApply}): the configuration merged into the current
   * object, or a new object when there is none (201), with ownership in managedFields. A
   * conflict with another manager is kube's 409 unless {@code force=true}. A create that loses
   * a race with another create applies again to the object that won.
   */
  private CompletableFuture<ApiResponse> apply(RequestInfo info, ApiRequest request, ResourceStore.Part part,
      int attempt) {
    ObjectNode applied = ServerSideApply.appliedConfiguration(def, info, request);
    String manager = request.param("fieldManager");
    boolean force = request.param("force").equals("true");
    var directive = directive(request, "PatchOptions");
    WriteStrategy strategy = store.strategy();
    var fieldManager = fieldManager();
    ServerSideApply.checkTyped(def, info, fieldManager, applied);
    var warnings = new java.util.concurrent.atomic.AtomicReference<java.util.List<String>>(java.util.List.of());
    Warnings admitted = new Warnings();
    java.util.function.UnaryOperator<ObjectNode> merge = current -> {
      ObjectNode out = (ObjectNode) fieldManager.apply(current, applied, manager, def.apiVersion(),
          part.subresource, force, store.clock().now()).object();
      SecretConversion.convertWritten(def, out);
      warnings.set(strategy != null ? strategy.decode(directive, null, out, true)
          : fieldValidation.checkPatched(directive, null, out));
      admit(request, info.namespace(), out, current);
      return current == null ? out : store.writable(part, out, current);
    };
    return store.updated(info.namespace(), info.name(), part, request.isDryRun(), request.user(), merge,
            admitted, request.auditAnnotations())
        .thenApply(u -> answer(200, u).withWarnings(warnings.get()).withWarnings(admitted.list()))
        .exceptionallyCompose(e -> {
          Throwable cause = e instanceof java.util.concurrent.CompletionException ? e.getCause() : e;
          if (part != ResourceStore.Part.MAIN || !(cause instanceof StatusException se) || se.code() != 404) {
            return CompletableFuture.failedFuture(cause);
          }
          // nothing to apply to: apply creates the object
          ObjectNode created;
          try {
            created = merge.apply(null);
          } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
          }
          ObjectNode meta = ObjectMetaDefaults.metadata(created);
          meta.put("name", info.name());
          if (def.namespaced()) {
            meta.put("namespace", info.namespace());
          }
          return store.create(info.namespace(), created, request.isDryRun(), request.user(), admitted,
              request.auditAnnotations())
              .thenApply(o -> ApiResponse.created(o).withWarnings(warnings.get()).withWarnings(admitted.list()))
              .exceptionallyCompose(ce -> {
                Throwable c = ce instanceof java.util.concurrent.CompletionException ? ce.getCause() : ce;
                return attempt == 0 && c instanceof StatusException s && s.code() == 409
                    ? apply(info, request, part, 1) : CompletableFuture.failedFuture(c);
              });
        });
  }

  private CompletableFuture<ApiResponse> delete(RequestInfo info, ApiRequest request) {
    DeleteOptions options = deleteOptions(request);
    if (options.ignoreStoreReadError()) {
      return unsafeDelete(info, request);
    }
    Warnings admitted = new Warnings();
    return store.delete(info.namespace(), info.name(), options, request.user(), admitted,
        request.auditAnnotations()).thenApply(result -> {
          ObjectNode deleted = result.object();
          if (!result.gone() || def.returnsDeletedObject()) { // deferred by finalizers: the marked object
            return ApiResponse.ok(deleted).withWarnings(admitted.list());
          }
          Status.Details details = Status.Details.of(info.name(), def.group().isEmpty() ? null : def.group(),
              def.plural()).withUid(ObjectMetaDefaults.metadata(deleted).path("uid").asText());
          return ApiResponse.ok(Status.success(details)).withWarnings(admitted.list());
        });
  }

  /**
   * kube's unsafe delete of a corrupt object ({@code ignoreStoreReadErrorWithClusterBreakingPotential},
   * feature gate {@code AllowUnsafeMalformedObjectDeletion}): the user must also be allowed the
   * verb {@code unsafe-delete-ignore-read-errors} on the object (403 naming the verb), the audit
   * event is annotated, and the store removes the object only if its stored value cannot be read
   * (see {@link ResourceStore#deleteUnreadable}). The answer is kube's: a Status of code 200
   * naming the object and its kind, since the object itself cannot be read.
   */
  private CompletableFuture<ApiResponse> unsafeDelete(RequestInfo info, ApiRequest request) {
    request.auditAnnotations().add(UNSAFE_DELETE_ANNOTATION, "");
    java.util.Optional<String> denied = served.authorizer().denial(request.user(), UNSAFE_DELETE_VERB, def.group(),
        def.plural(), info.namespace(), info.name());
    if (denied.isPresent()) {
      throw StatusException.forbidden(def.group(), def.plural(), info.name(),
          "not permitted to do \"" + UNSAFE_DELETE_VERB + "\", reason: " + denied.get());
    }
    return store.deleteUnreadable(info.namespace(), info.name()).thenApply(v -> ApiResponse.ok(
        new Status("Status", "v1", Status.ListMeta.EMPTY, Status.SUCCESS, null, null,
            Status.Details.of(info.name(), null, def.kind()), 200)));
  }

  /** The verb a user needs, besides {@code delete}, for an unsafe delete. */
  static final String UNSAFE_DELETE_VERB = "unsafe-delete-ignore-read-errors";
  /** The audit annotation of a request that asked for an unsafe delete. */
  static final String UNSAFE_DELETE_ANNOTATION = "apiserver.k8s.io/unsafe-delete-ignore-read-error";

  private DeleteOptions deleteOptions(ApiRequest request) {
    JsonNode body = request.body().length == 0 ? null
        : request.mediaType().equals(KubeProtobuf.MEDIA_TYPE) ? KubeProtobuf.decodeAny(request.body())
        : JsonBodies.parse(request.body());
    return DeleteOptions.parse(request, body, served.featureGates().allowUnsafeMalformedObjectDeletion());
  }

  /**
   * kube's deletecollection: deletes every object the label and field selectors match (in the
   * request's namespace) with the request's DeleteOptions, one by one, and answers with the
   * list of what was deleted (objects still being deleted as marked). Objects that went away
   * meanwhile are skipped.
   */
  private CompletableFuture<ApiResponse> deleteCollection(RequestInfo info, ApiRequest request) {
    if (!def.verbs().contains("deletecollection") || (def.namespaced() && info.namespace().isEmpty())) {
      throw StatusException.methodNotAllowed();
    }
    DeleteOptions options = deleteOptions(request);
    if (options.ignoreStoreReadError()) {
      throw StatusException.invalid("meta.k8s.io", "DeleteOptions", "", java.util.List.of(new Status.Cause(
          io.listwatch.api.Reasons.FIELD_VALUE_INVALID, "Invalid value: true: is not allowed with DELETECOLLECTION, "
          + "try again after removing the option", DeleteOptions.IGNORE_STORE_READ_ERROR)));
    }
    ListOptions listOptions = listOptions(request);
    ListOptions everything = ListOptions.builder().labelSelector(listOptions.labelSelector())
        .fieldSelector(listOptions.fieldSelector()).build();
    Warnings admitted = new Warnings();
    return store.deleteCollection(info.namespace(), everything, options, request.user(), admitted,
        request.auditAnnotations()).thenApply(items -> {
          ObjectNode list = ResourceStore.MAPPER.createObjectNode();
          list.put("kind", def.listKind()).put("apiVersion", def.apiVersion());
          list.putObject("metadata");
          list.putArray("items").addAll(items);
          return ApiResponse.ok(list).withWarnings(admitted.list());
        });
  }

  private void checkResourceVersion(String requested, ObjectNode current, String name) {
    if (!requested.isEmpty()
        && !requested.equals(ObjectMetaDefaults.metadata(current).path("resourceVersion").asText())) {
      throw StatusException.conflictModified(def.group(), def.plural(), name);
    }
  }

  private ObjectNode body(ApiRequest request) {
    String type = request.mediaType();
    boolean protobuf = KubeProtobuf.supports(def.apiVersion(), def.kind());
    if (protobuf && type.equals(KubeProtobuf.MEDIA_TYPE)) {
      return KubeProtobuf.decode(request.body(), def.apiVersion(), def.kind());
    }
    if (!JsonBodies.isJsonOrYaml(type)) {
      throw JsonBodies.unsupportedMediaType(protobuf); // custom resources: JSON and YAML only, as in kube
    }
    return JsonBodies.object(request.body(), type);
  }

}

package io.listwatch.server.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.FieldSelector;
import io.listwatch.api.JsonMergePatch;
import io.listwatch.api.ListOptions;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.server.cacher.CacheWatcher;
import io.listwatch.server.cacher.Cacher;
import io.listwatch.server.cacher.WatchSink;
import io.listwatch.server.protobuf.KubeProtobuf;
import io.listwatch.server.request.ApiRequest;
import io.listwatch.server.request.RequestInfo;
import io.listwatch.server.registry.ResourceDefinition;
import io.netty.handler.codec.http.HttpMethod;
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

  private static final String MERGE_PATCH = "application/merge-patch+json";

  private final ResourceDefinition def;
  private final ResourceStore store;
  /** Checks registered with {@link ApiRoutes#admission}; set before the server accepts requests. */
  private volatile java.util.List<WriteAdmission> admissions = java.util.List.of();

  ResourceHandler(ResourceStore store) {
    this.def = store.resource();
    this.store = store;
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

  CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (def.namespaced() && info.namespace().isEmpty() && !info.name().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    boolean status = info.subresource().equals("status") && def.hasStatus();
    if (!info.subresource().isEmpty() && !status) {
      throw StatusException.pathNotFound();
    }
    HttpMethod m = request.method();
    if (info.name().isEmpty()) {
      if (HttpMethod.GET.equals(m)) {
        return list(info, request);
      }
      if (HttpMethod.POST.equals(m)) {
        if (def.namespaced() && info.namespace().isEmpty()) {
          throw StatusException.pathNotFound();
        }
        ObjectNode created = body(request);
        admit(request, info.namespace(), created, null);
        return store.create(info.namespace(), created, request.isDryRun())
            .thenApply(ApiResponse::created);
      }
      throw StatusException.methodNotAllowed();
    }
    if (HttpMethod.GET.equals(m)) {
      return get(info, request);
    }
    if (HttpMethod.PUT.equals(m)) {
      return update(info, request, status);
    }
    if (HttpMethod.PATCH.equals(m)) {
      return patch(info, request, status);
    }
    if (HttpMethod.DELETE.equals(m) && !status) {
      return delete(info, request);
    }
    throw StatusException.methodNotAllowed();
  }

  private CompletableFuture<ApiResponse> get(RequestInfo info, ApiRequest request) {
    ListOptions options = ListOptions.parse(request.query());
    return store.cacher().get(info.namespace(), info.name(), options).thenApply(found -> {
      var obj = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), info.name()));
      return ApiResponse.okJson(obj.json());
    });
  }

  private CompletableFuture<ApiResponse> list(RequestInfo info, ApiRequest request) {
    ListOptions options = listOptions(request);
    return store.cacher().list(info.namespace(), options).thenApply(r -> new ApiResponse(200,
        new ApiResponse.ListBody(def.listKind(), def.apiVersion(), r.resourceVersion(), r.continueToken(),
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

  private CompletableFuture<ApiResponse> update(RequestInfo info, ApiRequest request, boolean status) {
    ObjectNode body = body(request);
    String rv = ObjectMetaDefaults.metadata(body).path("resourceVersion").asText("");
    return store.guaranteedUpdate(info.namespace(), info.name(), status, request.isDryRun(), current -> {
      checkResourceVersion(rv, current, info.name());
      ObjectNode updated = body.deepCopy();
      admit(request, info.namespace(), updated, current);
      return updated;
    }).thenApply(ApiResponse::ok);
  }

  private CompletableFuture<ApiResponse> patch(RequestInfo info, ApiRequest request, boolean status) {
    if (!request.mediaType().equals(MERGE_PATCH)) {
      throw StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
          + "media types include: " + MERGE_PATCH);
    }
    JsonNode patch = parse(request.body());
    if (!patch.isObject()) {
      throw StatusException.badRequest("a merge patch for an object must be a JSON object");
    }
    String rv = patch.path("metadata").path("resourceVersion").asText("");
    return store.guaranteedUpdate(info.namespace(), info.name(), status, request.isDryRun(), current -> {
      checkResourceVersion(rv, current, info.name());
      JsonNode patched = JsonMergePatch.apply(current, patch);
      if (!(patched instanceof ObjectNode o)) {
        throw StatusException.badRequest("the patch does not produce an object");
      }
      admit(request, info.namespace(), o, current);
      return o;
    }).thenApply(ApiResponse::ok);
  }

  private CompletableFuture<ApiResponse> delete(RequestInfo info, ApiRequest request) {
    JsonNode options = request.body().length == 0 ? ResourceStore.MAPPER.createObjectNode()
        : request.mediaType().equals(KubeProtobuf.MEDIA_TYPE) ? KubeProtobuf.decodeAny(request.body())
        : parse(request.body());
    JsonNode pre = options.path("preconditions");
    String uid = pre.path("uid").asText("");
    String rv = pre.path("resourceVersion").asText("");
    boolean dryRun = request.isDryRun();
    for (JsonNode d : options.path("dryRun")) {
      if (!d.asText().equals("All")) {
        throw StatusException.badRequest("Unsupported value: \"" + d.asText() + "\": supported values: \"All\"");
      }
      dryRun = true;
    }
    return store.delete(info.namespace(), info.name(), dryRun, current -> {
      ObjectNode meta = ObjectMetaDefaults.metadata(current);
      if (!uid.isEmpty() && !uid.equals(meta.path("uid").asText())) {
        throw StatusException.conflict(def.group(), def.plural(), info.name(), "Precondition failed: UID in "
            + "precondition: " + uid + ", UID in object meta: " + meta.path("uid").asText());
      }
      if (!rv.isEmpty() && !rv.equals(meta.path("resourceVersion").asText())) {
        throw StatusException.conflict(def.group(), def.plural(), info.name(), "Precondition failed: "
            + "ResourceVersion in precondition: " + rv + ", ResourceVersion in object meta: "
            + meta.path("resourceVersion").asText());
      }
    }).thenApply(result -> {
      ObjectNode deleted = result.object();
      if (!result.gone() || def.returnsDeletedObject()) { // deferred by finalizers: the marked object
        return ApiResponse.ok(deleted);
      }
      Status.Details details = Status.Details.of(info.name(), def.group().isEmpty() ? null : def.group(),
          def.plural()).withUid(ObjectMetaDefaults.metadata(deleted).path("uid").asText());
      return ApiResponse.ok(Status.success(details));
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
    if (!type.isEmpty() && !type.equals("application/json") && !type.equals("*/*")) {
      // custom resources are JSON only, as in kube
      throw StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
          + "media types include: application/json" + (protobuf ? ", " + KubeProtobuf.MEDIA_TYPE : ""));
    }
    JsonNode node = parse(request.body());
    if (!(node instanceof ObjectNode o)) {
      throw StatusException.badRequest("the body of the request must be a JSON object");
    }
    return o;
  }

  private static JsonNode parse(byte[] body) {
    if (body.length == 0) {
      throw StatusException.badRequest("the request has no body");
    }
    try {
      return ResourceStore.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw StatusException.badRequest("cannot read the body of the request: " + e.getMessage());
    }
  }
}

package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonMergePatch;
import io.listwatch.api.ListOptions;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code scale} subresource of deployments, replicasets, statefulsets and custom resources
 * that declare one: an {@code autoscaling/v1 Scale} view of the object (its desired and observed
 * replicas and its selector, found where {@link ScaleFields} says). GET reads it; PUT and a JSON
 * merge patch ({@code kubectl scale}) set the desired replicas of the object and nothing else,
 * guarded by the Scale's {@code metadata.resourceVersion} when given. Negative replicas are
 * refused with kube's 422.
 *
 * <p>Thread-safe (stateless beyond the store).
 */
final class ScaleHandler implements RestHandler {

  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final ListOptions CONSISTENT = ListOptions.parse(java.util.Map.of());

  private final ResourceStore store;
  private final ResourceDefinition def;
  private final ScaleFields fields;

  ScaleHandler(ResourceStore store, ScaleFields fields) {
    this.store = store;
    this.def = store.resource();
    this.fields = fields;
  }

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (info.name().isEmpty() || info.namespace().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    String m = request.method();
    if (ApiRequest.GET.equals(m)) {
      return store.cacher().get(info.namespace(), info.name(), CONSISTENT).thenApply(found -> {
        var obj = found.orElseThrow(() -> StatusException.notFound(def.group(), def.plural(), info.name()));
        return ApiResponse.ok(scaleOf(ResourceStore.parse(obj.json()), fields));
      });
    }
    if (ApiRequest.PUT.equals(m)) {
      ObjectNode scale = JsonBodies.object(request);
      return update(info, request, current -> scale);
    }
    if (ApiRequest.PATCH.equals(m)) {
      if (!request.mediaType().equals(MERGE_PATCH)) {
        throw StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
            + "media types include: " + MERGE_PATCH);
      }
      JsonNode patch = JsonBodies.parse(request.body());
      if (!patch.isObject()) {
        throw StatusException.badRequest("a merge patch for an object must be a JSON object");
      }
      return update(info, request, current -> {
        JsonNode patched = JsonMergePatch.apply(scaleOf(current, fields), patch);
        if (!(patched instanceof ObjectNode o)) {
          throw StatusException.badRequest("the patch does not produce an object");
        }
        return o;
      });
    }
    throw StatusException.methodNotAllowed();
  }

  private CompletableFuture<ApiResponse> update(RequestInfo info, ApiRequest request,
      java.util.function.UnaryOperator<ObjectNode> newScale) {
    return store.guaranteedUpdate(info.namespace(), info.name(), false, request.isDryRun(), request.user(), current -> {
      ObjectNode scale = newScale.apply(current);
      checkTypeMeta(scale);
      String rv = scale.path("metadata").path("resourceVersion").asText("");
      if (!rv.isEmpty() && !rv.equals(current.path("metadata").path("resourceVersion").asText())) {
        throw StatusException.conflictModified(def.group(), def.plural(), info.name());
      }
      JsonNode replicas = scale.path("spec").path("replicas");
      long n = replicas.isMissingNode() || replicas.isNull() ? 0 : replicas.asLong();
      if (!replicas.isMissingNode() && !replicas.isNull() && !replicas.canConvertToInt()) {
        throw StatusException.badRequest("spec.replicas must be a 32-bit integer");
      }
      if (n < 0) {
        throw StatusException.invalid("autoscaling", "Scale", info.name(), List.of(new Status.Cause(
            Reasons.FIELD_VALUE_INVALID, "Invalid value: " + n + ": must be greater than or equal to 0",
            "spec.replicas")));
      }
      ObjectNode updated = current.deepCopy();
      fields.setSpecReplicas(updated, (int) n);
      return updated;
    }).thenApply(updated -> ApiResponse.ok(scaleOf(updated, fields)));
  }

  private static void checkTypeMeta(ObjectNode scale) {
    String apiVersion = scale.path("apiVersion").asText("");
    String kind = scale.path("kind").asText("");
    if (!apiVersion.isEmpty() && !apiVersion.equals("autoscaling/v1")) {
      throw StatusException.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (autoscaling/v1)");
    }
    if (!kind.isEmpty() && !kind.equals("Scale")) {
      throw StatusException.badRequest("the kind in the data (" + kind + ") does not match the expected kind (Scale)");
    }
  }

  /** The autoscaling/v1 Scale of {@code obj}. */
  static ObjectNode scaleOf(ObjectNode obj, ScaleFields fields) {
    ObjectNode scale = ResourceStore.MAPPER.createObjectNode();
    scale.put("kind", "Scale").put("apiVersion", "autoscaling/v1");
    ObjectNode meta = scale.putObject("metadata");
    JsonNode m = obj.path("metadata");
    for (String f : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
      if (m.has(f)) {
        meta.set(f, m.get(f).deepCopy());
      }
    }
    scale.putObject("spec").put("replicas", fields.specReplicas(obj));
    ObjectNode status = scale.putObject("status");
    status.put("replicas", fields.statusReplicas(obj));
    status.put("selector", fields.selector(obj));
    return scale;
  }
}

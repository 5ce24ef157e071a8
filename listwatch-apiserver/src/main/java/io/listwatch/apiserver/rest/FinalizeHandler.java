package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.concurrent.CompletableFuture;

/**
 * {@code PUT /api/v1/namespaces/{name}/finalize}, kube's namespace finalize subresource: the
 * body is the Namespace, of which only {@code spec.finalizers} is taken; everything else stays
 * as stored. It is how the namespace controller releases a Terminating namespace (removing
 * the {@code kubernetes} finalizer), and how an operator frees one whose finalizer nobody will
 * remove. An ordinary update or patch of a namespace keeps its finalizers. A
 * {@code metadata.resourceVersion} in the body must be the current one (409 otherwise); a
 * body naming another namespace is a 400.
 *
 * <p>Thread-safe (stateless beyond the store).
 */
record FinalizeHandler(ResourceStore namespaces) implements RestHandler {

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (!ApiRequest.PUT.equals(request.method())) {
      throw StatusException.methodNotAllowed();
    }
    if (info.name().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    ObjectNode body = JsonBodies.object(request);
    String bodyName = ObjectMetaDefaults.metadata(body).path("name").asText("");
    if (!bodyName.isEmpty() && !bodyName.equals(info.name())) {
      throw StatusException.badRequest("the name of the object (" + bodyName
          + ") does not match the name on the URL (" + info.name() + ")");
    }
    String rv = ObjectMetaDefaults.metadata(body).path("resourceVersion").asText("");
    return namespaces.guaranteedUpdate("", info.name(), ResourceStore.Part.FINALIZE, request.isDryRun(), request.user(), current -> {
      if (!rv.isEmpty() && !rv.equals(ObjectMetaDefaults.metadata(current).path("resourceVersion").asText())) {
        throw StatusException.conflictModified("", "namespaces", info.name());
      }
      return body.deepCopy();
    }).thenApply(ApiResponse::ok);
  }
}

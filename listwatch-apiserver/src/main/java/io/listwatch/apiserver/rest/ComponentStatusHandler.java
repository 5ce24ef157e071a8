package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * kube's deprecated, read-only {@code componentstatuses} (v1 ComponentStatus, {@code kubectl get
 * cs}): a GET of one component or of the list, each with one {@code Healthy} condition, probed
 * on every request, nothing stored. Every answer carries kube's deprecation warning; other verbs
 * are 405.
 *
 * <ul>
 *   <li>{@code etcd-0}, the storage (kube names one per etcd server; listwatch has one store,
 *       whatever its backend): True with message {@code ok} when it answers a read of its
 *       current revision within {@link #PROBE_TIMEOUT_SECONDS}, else False with the failure in
 *       {@code error}.
 *   <li>{@code scheduler} and {@code controller-manager}: they run outside listwatch, and it
 *       does not probe them (kube probes fixed local ports); their status is Unknown, with a
 *       message that says so.
 * </ul>
 *
 * <p>Thread-safe (stateless beyond the storage).
 */
record ComponentStatusHandler(ResourceDefinition resource, Storage storage) implements RestHandler {

  /** kube's warning on every request for v1 ComponentStatus. */
  static final String WARNING = "v1 ComponentStatus is deprecated in v1.19+";
  static final long PROBE_TIMEOUT_SECONDS = 5;
  private static final List<String> NOT_PROBED = List.of("scheduler", "controller-manager");

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (!ApiRequest.GET.equals(request.method())) {
      throw StatusException.methodNotAllowed();
    }
    String name = info.name();
    if (!name.isEmpty() && !name.equals("etcd-0") && !NOT_PROBED.contains(name)) {
      throw StatusException.notFound("", resource.plural(), name);
    }
    return storage.readCurrentRevision().orTimeout(PROBE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .handle((revision, failure) -> {
          List<CachedObject> items = new ArrayList<>();
          items.add(failure == null ? item("etcd-0", "True", "ok", null)
              : item("etcd-0", "False", null, failureMessage(failure)));
          NOT_PROBED.forEach(n -> items.add(item(n, "Unknown",
              "listwatch does not probe the " + n + ": it runs outside the server", null)));
          ApiResponse answer = name.isEmpty()
              ? new ApiResponse(200, new ApiResponse.ListBody(resource, failure == null ? revision : 0, null, null, items))
              : new ApiResponse(200, new ApiResponse.CachedBody(resource,
                  items.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow()));
          return answer.withWarnings(List.of(WARNING));
        });
  }

  private static String failureMessage(Throwable failure) {
    Throwable t = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    return t instanceof java.util.concurrent.TimeoutException
        ? "the storage did not answer within " + PROBE_TIMEOUT_SECONDS + "s" : String.valueOf(t.getMessage());
  }

  private CachedObject item(String name, String status, String message, String error) {
    ObjectNode o = ResourceStore.MAPPER.createObjectNode().put("kind", resource.kind())
        .put("apiVersion", resource.apiVersion());
    o.putObject("metadata").put("name", name);
    ObjectNode c = o.putArray("conditions").addObject().put("type", "Healthy").put("status", status);
    if (message != null) {
      c.put("message", message);
    }
    if (error != null) {
      c.put("error", error);
    }
    return new CachedObject("/" + resource.plural() + "/" + name, "", name, 0,
        o.toString().getBytes(StandardCharsets.UTF_8), Map.of(), Map.of("metadata.name", name, "metadata.namespace", ""));
  }
}

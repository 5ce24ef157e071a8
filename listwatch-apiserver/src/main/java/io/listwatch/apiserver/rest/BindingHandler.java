package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /api/v1/namespaces/{ns}/pods/{name}/binding} (what a scheduler sends): binds the
 * pod to {@code target.name}, a node, as kube's BindingREST does. Sets {@code spec.nodeName},
 * adds the binding's annotations to the pod's, and sets the {@code PodScheduled} condition to
 * True, in one write. A pod already bound, or being deleted, is a 409 Conflict; a Binding
 * naming another pod a 400; a target that is not a Node, or without a name, a 422. Answers 201
 * with a success Status.
 *
 * <p>With {@code resource} true it serves kube's create-only {@code bindings} resource instead,
 * {@code POST /api/v1/namespaces/{ns}/bindings}: the pod is the Binding's {@code metadata.name}
 * (kube's create handler takes the name from the object); none is kube's 400
 * {@code Name parameter required.}; other verbs are 405.
 *
 * <p>Thread-safe (stateless beyond the store).
 */
record BindingHandler(ResourceStore pods, boolean resource) implements RestHandler {

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (!resource) {
      return bind(info.namespace(), info.name(), JsonBodies.subresourcePost(info, request, "Binding"), request);
    }
    if (!ApiRequest.POST.equals(request.method()) || !info.name().isEmpty()) {
      throw StatusException.methodNotAllowed();
    }
    ObjectNode binding = JsonBodies.object(request);
    String name = binding.path("metadata").path("name").asText("");
    if (name.isEmpty()) {
      throw StatusException.badRequest("Name parameter required.");
    }
    return bind(info.namespace(), name, binding, request);
  }

  private CompletableFuture<ApiResponse> bind(String namespace, String name, ObjectNode binding, ApiRequest request) {
    JsonNode target = binding.path("target");
    String kind = target.path("kind").asText("");
    String node = target.path("name").asText("");
    List<Status.Cause> causes = new ArrayList<>();
    if (!kind.isEmpty() && !kind.equals("Node")) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_NOT_SUPPORTED,
          "Unsupported value: \"" + kind + "\": supported values: \"Node\", \"<empty>\"", "target.kind"));
    }
    if (node.isEmpty()) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_REQUIRED, "Required value", "target.name"));
    }
    if (!causes.isEmpty()) {
      throw StatusException.invalid("", "Binding", name, causes);
    }
    String now = ObjectMetaRules.timestamp(pods.clock().now());
    JsonNode annotations = binding.path("metadata").path("annotations");
    return pods.guaranteedUpdate(namespace, name, ResourceStore.Part.WHOLE, request.isDryRun(), request.user(),
        pod -> {
          ObjectNode meta = ObjectMetaRules.metadata(pod);
          if (ObjectMetaRules.isMarkedForDeletion(pod)) {
            throw StatusException.conflict("", "pods", name,
                "pod " + name + " is being deleted, cannot be assigned to a host");
          }
          ObjectNode spec = pod.get("spec") instanceof ObjectNode s ? s : pod.putObject("spec");
          String bound = spec.path("nodeName").asText("");
          if (!bound.isEmpty()) {
            throw StatusException.conflict("", "pods", name,
                "pod " + name + " is already assigned to node \"" + bound + "\"");
          }
          spec.put("nodeName", node);
          if (annotations.isObject() && !annotations.isEmpty()) {
            ObjectNode a = meta.get("annotations") instanceof ObjectNode x ? x : meta.putObject("annotations");
            annotations.properties().forEach(e -> a.set(e.getKey(), e.getValue()));
          }
          setScheduled(pod, now);
          return pod;
        }).thenApply(bound -> ApiResponse.created(createdStatus()));
  }

  private static void setScheduled(ObjectNode pod, String now) {
    ObjectNode status = pod.get("status") instanceof ObjectNode s ? s : pod.putObject("status");
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
    for (JsonNode c : conditions) {
      if (c.path("type").asText().equals("PodScheduled") && c instanceof ObjectNode o) {
        if (!o.path("status").asText().equals("True")) {
          o.put("status", "True").put("lastTransitionTime", now);
          o.remove(List.of("reason", "message"));
        }
        return;
      }
    }
    conditions.addObject().put("type", "PodScheduled").put("status", "True").putNull("lastProbeTime")
        .put("lastTransitionTime", now);
  }

  /** The success Status a create-like subresource answers (kube fills in the 201). */
  static Status createdStatus() {
    return new Status("Status", "v1", Status.ListMeta.EMPTY, Status.SUCCESS, null, null, null, 201);
  }
}

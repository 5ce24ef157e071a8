package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /api/v1/namespaces/{ns}/pods/{name}/eviction} with a policy/v1 Eviction
 * ({@code kubectl drain}): deletes the pod unless a PodDisruptionBudget forbids it, as kube's
 * EvictionREST does.
 *
 * <ul>
 *   <li>A pod that is Pending (or has no phase yet), Succeeded, Failed or already being deleted
 *       is deleted without looking at budgets; so is a pod no budget selects.
 *   <li>With one matching budget: 429 TooManyRequests ("Cannot evict pod as it would violate
 *       the pod's disruption budget.", cause {@code DisruptionBudget}) while the budget's
 *       {@code status.observedGeneration} is behind its generation or its
 *       {@code status.disruptionsAllowed} is 0; 403 when it is negative. Otherwise
 *       {@code disruptionsAllowed} is decremented and the pod recorded in
 *       {@code status.disruptedPods} (one write, guarded by the budget's version), then the pod
 *       is deleted with the Eviction's {@code deleteOptions}.
 *   <li>More than one matching budget: 500, as kube.
 * </ul>
 * Answers 201 with a success Status. {@code dryRun} checks everything and changes nothing.
 *
 * <p>Thread-safe (stateless beyond the stores).
 */
final class EvictionHandler implements RestHandler {

  private static final ListOptions CONSISTENT = ListOptions.parse(Map.of());
  private static final String TOO_MANY = "Cannot evict pod as it would violate the pod's disruption budget.";

  private final ResourceStore pods;
  private final ResourceStore budgets;

  EvictionHandler(ResourceStore pods, ResourceStore budgets) {
    this.pods = pods;
    this.budgets = budgets;
  }

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    ObjectNode eviction = JsonBodies.subresourcePost(info, request, "Eviction");
    JsonNode opts = eviction.path("deleteOptions");
    DeleteOptions options = DeleteOptions.parse(request, opts.isObject() ? opts : null);
    String ns = info.namespace();
    return pods.cacher().get(ns, info.name(), CONSISTENT).thenCompose(found -> {
      CachedObject cached = found.orElseThrow(() -> StatusException.notFound("", "pods", info.name()));
      ObjectNode pod = ResourceStore.parse(cached.json());
      String phase = pod.path("status").path("phase").asText("");
      // no phase: kube would have set Pending at creation (this server stores the pod as given)
      if (ObjectMetaRules.isMarkedForDeletion(pod) || List.of("", "Pending", "Succeeded", "Failed").contains(phase)) {
        return deletePod(ns, info.name(), options);
      }
      return budgets.cacher().list(ns, CONSISTENT).thenCompose(listed -> {
        List<ObjectNode> matching = listed.items().stream().map(b -> ResourceStore.parse(b.json()))
            .filter(b -> selects(b, cached.labels())).toList();
        if (matching.size() > 1) {
          throw StatusException.internal(
              "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
        }
        if (matching.isEmpty()) {
          return deletePod(ns, info.name(), options);
        }
        String budget = matching.getFirst().path("metadata").path("name").asText();
        String now = ObjectMetaRules.timestamp(pods.clock().now());
        return budgets.guaranteedUpdate(ns, budget, ResourceStore.Part.STATUS, options.dryRun(), request.user(), current -> {
          ObjectNode status = checkAndDecrement(current);
          ObjectNode disrupted = status.get("disruptedPods") instanceof ObjectNode d ? d : status.putObject("disruptedPods");
          disrupted.put(info.name(), now);
          return current;
        }).thenCompose(b -> deletePod(ns, info.name(), options));
      });
    });
  }

  private static boolean selects(ObjectNode budget, Map<String, String> podLabels) {
    JsonNode selector = budget.path("spec").path("selector");
    if (!selector.isObject()) {
      return false; // a budget without a selector selects no pod
    }
    LabelSelector s = LabelSelector.fromObject(selector);
    return !s.isEverything() && s.matches(podLabels);
  }

  /** kube's checkAndDecrement: refuses while the budget allows no disruption; returns the decremented status. */
  private static ObjectNode checkAndDecrement(ObjectNode budget) {
    String name = budget.path("metadata").path("name").asText();
    ObjectNode status = budget.get("status") instanceof ObjectNode s ? s : budget.putObject("status");
    if (status.path("observedGeneration").asLong(0) < budget.path("metadata").path("generation").asLong(0)) {
      throw tooManyRequests("The disruption budget " + name + " is still being processed by the server.");
    }
    long allowed = status.path("disruptionsAllowed").asLong(0);
    if (allowed < 0) {
      throw StatusException.forbidden("policy", "poddisruptionbudgets", name, "pdb disruptions allowed is negative");
    }
    if (allowed == 0) {
      throw tooManyRequests("The disruption budget " + name + " needs " + status.path("desiredHealthy").asLong(0)
          + " healthy pods and has " + status.path("currentHealthy").asLong(0) + " currently");
    }
    status.put("disruptionsAllowed", allowed - 1);
    return status;
  }

  private static StatusException tooManyRequests(String cause) {
    return new StatusException(Status.failure(429, Reasons.TOO_MANY_REQUESTS, TOO_MANY,
        new Status.Details(null, null, null, null, List.of(new Status.Cause("DisruptionBudget", cause, null)), 0)));
  }

  private CompletableFuture<ApiResponse> deletePod(String namespace, String name, DeleteOptions options) {
    return pods.delete(namespace, name, options).thenApply(d -> ApiResponse.created(BindingHandler.createdStatus()));
  }
}

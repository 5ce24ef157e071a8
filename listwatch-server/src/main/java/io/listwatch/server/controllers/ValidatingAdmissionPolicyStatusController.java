package io.listwatch.server.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.apiextensions.cel.ExpressionWarning;
import io.listwatch.apiserver.apiextensions.cel.TypeChecker;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.List;
import java.util.Optional;

/**
 * kube-controller-manager's ValidatingAdmissionPolicy status controller
 * ({@code pkg/controller/validatingadmissionpolicystatus}): each policy whose
 * {@code metadata.generation} is above its {@code status.observedGeneration} is type checked
 * ({@link TypeChecker}) and gets, through {@code /status} as the server,
 * {@code status.observedGeneration} (the generation checked) and {@code status.typeChecking}
 * ({@code {}} when nothing was found, else {@code {"expressionWarnings": [...]}}). The rest of
 * the status (conditions) is kept, as kube's server-side apply of those two fields keeps it. A
 * policy is queued when it is added or changed; a kind or CRD that appears later does not
 * re-check it (nor does it in kube).
 *
 * <p>Thread-safe: listeners only queue policy names; the work runs on the
 * {@code validatingadmissionpolicy-status-controller} thread.
 */
public final class ValidatingAdmissionPolicyStatusController implements AutoCloseable {

  private final ResourceStore policies;
  private final TypeChecker typeChecker;
  private final ControllerQueue queue;

  /**
   * A controller for the policies of {@code policies}, working while {@code gate} is open.
   *
   * @param clock when failed syncs are retried
   */
  public ValidatingAdmissionPolicyStatusController(ResourceStore policies, TypeChecker typeChecker,
      ControllerQueue.Gate gate, Clock clock) {
    this.policies = policies;
    this.typeChecker = typeChecker;
    this.queue = new ControllerQueue("validatingadmissionpolicy-status-controller", this::sync, gate, clock);
  }

  /** Registers the cache listener and starts the worker. */
  public void start() {
    queue.start();
    policies.cacher().addListener(CacheListener.of(objects -> objects.forEach(o -> queue.add(o.name())), event -> {
      if (event.type() != WatchCacheEvent.Type.DELETED) {
        queue.add(event.object().name());
      }
    }));
  }

  /** Whether {@code policy}'s status is behind its spec (kube's {@code Generation <= ObservedGeneration} test). */
  static boolean needsCheck(JsonNode policy) {
    return policy.path("metadata").path("generation").asLong(0)
        > policy.path("status").path("observedGeneration").asLong(0);
  }

  private void sync(String name) {
    Optional<ObjectNode> found = policies.getInternal("", name).join();
    if (found.isEmpty() || !needsCheck(found.get())) {
      return;
    }
    long generation = found.get().path("metadata").path("generation").asLong();
    List<ExpressionWarning> warnings = typeChecker.check(found.get());
    policies.updateStatusInternal("", name, policy -> {
      if (policy.path("metadata").path("generation").asLong() != generation) {
        return policy; // changed since: its own event checks it again
      }
      ObjectNode status = policy.with("status");
      status.put("observedGeneration", generation);
      ObjectNode typeChecking = status.putObject("typeChecking");
      if (!warnings.isEmpty()) {
        ArrayNode list = typeChecking.putArray("expressionWarnings");
        warnings.forEach(w -> list.addObject().put("fieldRef", w.fieldRef()).put("warning", w.warning()));
      }
      return policy;
    }).join();
  }

  /** Stops the worker. Idempotent. */
  @Override
  public void close() {
    queue.close();
  }
}

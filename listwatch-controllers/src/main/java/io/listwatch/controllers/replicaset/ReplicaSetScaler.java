package io.listwatch.controllers.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.controllers.ControllerExpectations;
import io.listwatch.controllers.ControllerRefManager;
import io.listwatch.controllers.events.EventRecorder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Creates and deletes a ReplicaSet's pods to match {@code spec.replicas} (kube's
 * {@code manageReplicas}).
 *
 * <ul>
 *   <li>At most {@value #BURST_REPLICAS} creations or deletions per sync (kube's
 *       {@code burstReplicas}); the next sync does the rest.
 *   <li>Creations expected first ({@link ControllerExpectations#expectCreations}), then done in
 *       slow-start batches of 1, 2, 4, ... in parallel, stopping at the first batch with a
 *       failure (a quota or admission error fails the same way for every pod; kube's
 *       {@code slowStartBatch}). Creations not done or failed are taken back from the
 *       expectations, which would otherwise wait for pods that will never appear. A refusal
 *       because the namespace is terminating is not a failure (kube's rule).
 *   <li>Pods are made from the template: its labels, annotations and finalizers, name
 *       {@code <replicaset>-<random suffix>} (generateName), the ReplicaSet as controller
 *       ownerReference ({@code controller: true}, {@code blockOwnerDeletion: true}).
 *   <li>Deletions pick the pods {@link ActivePodsWithRanks} ranks first, expect them by key,
 *       and delete them in parallel; a failed deletion is taken back, a 404 is not an error.
 * </ul>
 *
 * <p>Thread-safe: stateless apart from the thread-safe collaborators.
 */
final class ReplicaSetScaler {

  static final int BURST_REPLICAS = 500;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ResourceClient<DynamicObject> pods;
  private final ControllerExpectations expectations;
  private final EventRecorder events;
  private final Clock clock;

  ReplicaSetScaler(ResourceClient<DynamicObject> pods, ControllerExpectations expectations, EventRecorder events,
      Clock clock) {
    this.pods = pods;
    this.expectations = expectations;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Creates or deletes pods of {@code rs} (key {@code key}) given the active pods it owns;
   * throws the first error after doing what it could.
   */
  void manageReplicas(String key, DynamicObject rs, List<DynamicObject> owned, List<DynamicObject> related) {
    int diff = owned.size() - ReplicaSetSpec.replicas(rs);
    if (diff < 0) {
      int count = Math.min(-diff, BURST_REPLICAS);
      expectations.expectCreations(key, count);
      DynamicObject template = podFromTemplate(rs);
      List<RuntimeException> errors = new ArrayList<>();
      int created = slowStartBatch(count, 1, i -> create(rs, template), errors);
      for (int skipped = count - created; skipped > 0; skipped--) {
        expectations.creationObserved(key);
      }
      if (!errors.isEmpty()) {
        throw errors.getFirst();
      }
    } else if (diff > 0) {
      int count = Math.min(diff, BURST_REPLICAS);
      List<DynamicObject> victims = podsToDelete(owned, related, count);
      expectations.expectDeletions(key, victims.stream().map(Pods::key).toList());
      List<RuntimeException> errors = parallel(victims, pod -> delete(key, rs, pod));
      if (!errors.isEmpty()) {
        throw errors.getFirst();
      }
    }
  }

  /**
   * The {@code count} pods to delete first, in kube's preference order; a pod's rank is how
   * many of the {@code related} active pods (those of every ReplicaSet with the same owner, e.g.
   * the same Deployment's; kube's {@code getIndirectlyRelatedPods}) share its node.
   */
  List<DynamicObject> podsToDelete(List<DynamicObject> owned, List<DynamicObject> related, int count) {
    Map<String, Integer> perNode = new HashMap<>();
    for (DynamicObject pod : related) {
      String node = Pods.nodeName(pod);
      if (!node.isEmpty()) {
        perNode.merge(node, 1, Integer::sum);
      }
    }
    Map<DynamicObject, Integer> ranks = new HashMap<>();
    for (DynamicObject pod : owned) {
      String node = Pods.nodeName(pod);
      ranks.put(pod, node.isEmpty() ? 0 : perNode.getOrDefault(node, 0));
    }
    List<DynamicObject> sorted = new ArrayList<>(owned);
    sorted.sort(new ActivePodsWithRanks(ranks, clock.now()));
    return List.copyOf(sorted.subList(0, Math.min(count, sorted.size())));
  }

  private Void create(DynamicObject rs, DynamicObject template) {
    try {
      DynamicObject pod = pods.create(template);
      events.event(rs, EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: " + pod.name());
      return null;
    } catch (RuntimeException e) {
      events.event(rs, EventRecorder.WARNING, "FailedCreate", "Error creating: " + e.getMessage());
      if (namespaceTerminating(e)) {
        return null; // kube: not a failure of the ReplicaSet; the namespace is going away
      }
      throw e;
    }
  }

  /** A refusal with kube's {@code NamespaceTerminating} cause. */
  static boolean namespaceTerminating(RuntimeException e) {
    if (!(e instanceof StatusException s) || s.status().details() == null
        || s.status().details().causes() == null) {
      return false;
    }
    return s.status().details().causes().stream().anyMatch(c -> "NamespaceTerminating".equals(c.reason()));
  }

  private Void delete(String key, DynamicObject rs, DynamicObject pod) {
    try {
      pods.delete(pod.namespace(), pod.name());
      events.event(rs, EventRecorder.NORMAL, "SuccessfulDelete", "Deleted pod: " + pod.name());
      return null;
    } catch (RuntimeException e) {
      expectations.deletionObserved(key, Pods.key(pod)); // its deletion will not be seen
      if (e instanceof StatusException s && s.code() == 404) {
        return null;
      }
      events.event(rs, EventRecorder.WARNING, "FailedDelete", "Error deleting: " + e.getMessage());
      throw e;
    }
  }

  /**
   * Runs {@code fn} {@code count} times in batches of {@code initial}, doubling while every call
   * of a batch succeeds; returns how many succeeded, adding the failures to {@code errors}.
   */
  static int slowStartBatch(int count, int initial, Function<Integer, Void> fn, List<RuntimeException> errors) {
    int remaining = count;
    int successes = 0;
    int batch = Math.min(remaining, initial);
    while (batch > 0) {
      List<Integer> calls = new ArrayList<>();
      for (int i = 0; i < batch; i++) {
        calls.add(successes + i);
      }
      List<RuntimeException> failed = parallel(calls, fn);
      successes += batch - failed.size();
      if (!failed.isEmpty()) {
        errors.addAll(failed);
        return successes;
      }
      remaining -= batch;
      batch = Math.min(2 * batch, remaining);
    }
    return successes;
  }

  /** Calls {@code fn} on every item at once (one virtual thread each); returns the failures. */
  private static <T> List<RuntimeException> parallel(List<T> items, Function<T, Void> fn) {
    List<RuntimeException> errors = new ArrayList<>();
    if (items.size() == 1) {
      try {
        fn.apply(items.getFirst());
      } catch (RuntimeException e) {
        errors.add(e);
      }
      return errors;
    }
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Void>> futures = new ArrayList<>();
      for (T item : items) {
        futures.add(executor.submit(() -> fn.apply(item)));
      }
      for (Future<Void> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          errors.add(e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          errors.add(new IllegalStateException("interrupted", e));
        }
      }
    }
    return errors;
  }

  /** The pod {@code rs} creates (kube's {@code GetPodFromTemplate}). */
  static DynamicObject podFromTemplate(DynamicObject rs) {
    JsonNode template = rs.get("spec", "template").orElse(MAPPER.createObjectNode());
    ObjectNode pod = MAPPER.createObjectNode();
    pod.put("apiVersion", ResourceType.PODS.apiVersion());
    pod.put("kind", ResourceType.PODS.kind());
    ObjectNode meta = pod.putObject("metadata");
    meta.put("generateName", rs.name() + "-");
    meta.put("namespace", rs.namespace());
    for (String field : List.of("labels", "annotations", "finalizers")) {
      JsonNode value = template.path("metadata").path(field);
      if (!value.isMissingNode() && !value.isNull()) {
        meta.set(field, value.deepCopy());
      }
    }
    meta.putArray("ownerReferences")
        .add(MAPPER.valueToTree(ControllerRefManager.ownerReference(ResourceType.REPLICASETS, rs)));
    pod.set("spec", template.path("spec").isObject() ? template.path("spec").deepCopy() : MAPPER.createObjectNode());
    return DynamicObject.of(pod);
  }
}

package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.FieldSelector;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ListWatch;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.ResourceEventHandlerRegistration;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.controllers.Controller;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler: binds each pod without a node to a node that can run it, as kube-scheduler
 * does with its default plugins (minus volumes, ports and preemption).
 *
 * <p><b>Informers.</b> Unscheduled pods come from the scheduler's own informer, with kube's
 * field selector {@code spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed}; only
 * pods whose {@code spec.schedulerName} is {@code default-scheduler} (or empty) are taken.
 * The pods already bound, which use up the nodes, come from the shared pods informer of the
 * {@link ControllerContext} (shared with the other controllers), nodes from its nodes
 * informer, and namespaces (whose labels the {@code namespaceSelector} of pod affinity terms
 * reads) from its namespaces informer.
 *
 * <p><b>A scheduling cycle</b> ({@link #scheduleOne}) pops a pod from the
 * {@link SchedulingQueue}, runs the filters ({@link FilterPlugin#defaults}, then
 * {@link PodTopologySpread} and {@link InterPodAffinity} when the pod or the pods already
 * placed have terms for them) on every node of a {@link SchedulerCache} snapshot, and scores
 * the nodes that pass ({@link NodeScorer}). The pod is assumed onto the chosen node (so the
 * next cycle counts it there), and its <b>binding cycle</b> starts: a Binding posted to
 * {@code pods/<name>/binding}, then the Normal Event {@code Scheduled}. As in kube-scheduler,
 * binding cycles run apart from the scheduling thread, at most
 * {@value #MAX_BINDINGS_IN_FLIGHT} at once, so the next pod is scheduled while the previous
 * one's write is on its way; a failed binding forgets the assumed pod. When no node fits,
 * the pod gets the condition {@code PodScheduled=False}, reason {@code Unschedulable}, with
 * kube's message ({@link FitError}), written through {@code /status}, and the Warning Event
 * {@code FailedScheduling}; it waits as unschedulable until a node is added or changes or a
 * bound pod goes away or a namespace is relabelled (or, for a pod with required pod affinity
 * or spread constraints, a pod is bound or relabelled). A failed binding is retried after the
 * backoff.
 *
 * <p><b>Threads.</b> One scheduling thread ({@code scheduler}), as kube schedules one pod at
 * a time so each decision sees the previous one (assumed pods included); the {@code workers}
 * argument of {@link #run} is therefore ignored. Binding cycles run on virtual threads. Informer handlers only update the cache and the queue,
 * both thread-safe. {@link #close} may be called from any thread.
 */
public final class Scheduler implements Controller {

  private static final Logger log = LoggerFactory.getLogger(Scheduler.class);
  /** kube's field selector of the scheduler's unscheduled pods. */
  static final String UNSCHEDULED_PODS = "spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed";
  private static final Duration SYNC_TIMEOUT = Duration.ofMinutes(5);
  /** Binding cycles running at once at most; the scheduling thread waits for a free one. */
  static final int MAX_BINDINGS_IN_FLIGHT = 16;

  private final ControllerContext ctx;
  private final ResourceClient<DynamicObject> pods;
  private final SharedIndexInformer<DynamicObject> unscheduled;
  private final SharedIndexInformer<DynamicObject> assigned;
  private final SharedIndexInformer<DynamicObject> nodes;
  private final SharedIndexInformer<DynamicObject> namespaces;
  private final NamespaceLabels namespaceLabels;
  /** The handlers' registrations: synced once each handler has seen its informer's initial list. */
  private final List<ResourceEventHandlerRegistration> handlers;
  private final SchedulerCache cache = new SchedulerCache();
  private final SchedulingQueue queue;
  private final List<FilterPlugin> filters = FilterPlugin.defaults();
  private final NodeScorer scorer;
  private final Semaphore bindingSlots = new Semaphore(MAX_BINDINGS_IN_FLIGHT);
  private final ExecutorService binder = Executors.newThreadPerTaskExecutor(
      Thread.ofVirtual().name("scheduler-binding-", 0).factory());
  private final Object runLock = new Object();
  /** The scheduling thread. */
  @GuardedBy("runLock")
  private Thread thread;
  @GuardedBy("runLock")
  private boolean closed;

  /** A scheduler over {@code ctx}, breaking ties with a fresh random generator. */
  public Scheduler(ControllerContext ctx) {
    this(ctx, new Random());
  }

  /** A scheduler that breaks ties between equally good nodes with {@code random}. */
  public Scheduler(ControllerContext ctx, RandomGenerator random) {
    this.ctx = ctx;
    this.pods = ctx.client().dynamic(ResourceType.PODS);
    this.queue = new SchedulingQueue(ctx.clock());
    this.scorer = new NodeScorer(random);
    FieldSelector selector = FieldSelector.parse(UNSCHEDULED_PODS);
    this.unscheduled = SharedIndexInformer.builder(
            ListWatch.of(pods, "", o -> o.toBuilder().fieldSelector(selector).build()), DynamicObject.CODEC)
        .name("pods-unscheduled").clock(ctx.clock()).build();
    this.assigned = ctx.informers().informerFor(ResourceType.PODS, DynamicObject.CODEC);
    this.nodes = ctx.informers().informerFor(ResourceType.NODES, DynamicObject.CODEC);
    this.namespaces = ctx.informers().informerFor(ResourceType.NAMESPACES, DynamicObject.CODEC);
    this.namespaceLabels = ns -> namespaces.getIndexer().getByKey(ns).map(DynamicObject::labels).orElse(Map.of());
    this.handlers = List.of(unscheduled.addEventHandler(new UnscheduledPodHandler()),
        assigned.addEventHandler(new AssignedPodHandler()), nodes.addEventHandler(new NodeHandler()),
        namespaces.addEventHandler(new NamespaceHandler()));
  }

  @Override
  public String name() {
    return "scheduler";
  }

  /** Starts the unscheduled-pods informer and the scheduling thread; the caller starts the shared informers. */
  @Override
  public void run(int workers) {
    synchronized (runLock) {
      if (closed || thread != null) {
        return;
      }
      unscheduled.start();
      queue.start();
      thread = Thread.ofPlatform().name("scheduler").daemon().start(this::loop);
    }
  }

  /**
   * Stops the scheduling thread (after the pod at hand), closes the unscheduled-pods informer
   * and removes the handlers from the shared informers. Idempotent.
   */
  @Override
  public void close() {
    Thread t;
    synchronized (runLock) {
      if (closed) {
        return;
      }
      closed = true;
      t = thread;
    }
    queue.close();
    if (t != null) {
      t.interrupt();
      try {
        t.join(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    binder.shutdown();
    try {
      if (!binder.awaitTermination(10, TimeUnit.SECONDS)) {
        binder.shutdownNow();
      }
    } catch (InterruptedException e) {
      binder.shutdownNow();
      Thread.currentThread().interrupt();
    }
    unscheduled.close();
    // The shared informers outlive this scheduler (e.g. when leadership moves): stop being told.
    assigned.removeEventHandler(handlers.get(1));
    nodes.removeEventHandler(handlers.get(2));
    namespaces.removeEventHandler(handlers.get(3));
  }

  private void loop() {
    try {
      if (!waitForSync()) {
        return;
      }
      log.info("Scheduler: caches synced, scheduling");
      while (!Thread.currentThread().isInterrupted()) {
        SchedulingQueue.QueuedPod q = queue.pop();
        if (q == null) {
          return;
        }
        try {
          scheduleOne(q);
        } catch (RuntimeException e) {
          log.warn("Scheduler: scheduling {} failed", q.pod().key(), e);
          queue.backoff(q);
        }
      }
    } catch (InterruptedException e) {
      // closing
    }
  }

  /**
   * Waits (real time, checking every 20 ms as client-go's WaitForCacheSync polls) until the
   * four informers have synced and the scheduler's handlers have seen their initial lists, so the first decisions see every node and bound pod.
   */
  private boolean waitForSync() throws InterruptedException {
    long deadline = System.nanoTime() + SYNC_TIMEOUT.toNanos();
    while (!handlers.stream().allMatch(ResourceEventHandlerRegistration::hasSynced)) {
      if (System.nanoTime() > deadline) {
        log.error("Scheduler: informers did not sync within {}", SYNC_TIMEOUT);
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /** One scheduling cycle for {@code q}'s pod. */
  void scheduleOne(SchedulingQueue.QueuedPod q) {
    PodInfo pod = q.pod();
    if (pod.deleting() || cache.hasPod(pod.key())) {
      // Being deleted, or already bound (a stale update of the unscheduled pod re-queued it).
      queue.done(q);
      return;
    }
    List<NodeInfo> all = cache.snapshot();
    List<FilterPlugin> cycleFilters = filters;
    Optional<FilterPlugin> spread = PodTopologySpread.preFilter(pod, all);
    Optional<FilterPlugin> affinity = InterPodAffinity.preFilter(pod, all, namespaceLabels);
    if (spread.isPresent() || affinity.isPresent()) {
      cycleFilters = new ArrayList<>(filters);
      spread.ifPresent(cycleFilters::add);
      affinity.ifPresent(cycleFilters::add);
    }
    Map<String, List<String>> failures = new LinkedHashMap<>();
    List<NodeInfo> feasible = new ArrayList<>();
    for (NodeInfo node : all) {
      List<String> reasons = FilterPlugin.run(cycleFilters, pod, node);
      if (reasons.isEmpty()) {
        feasible.add(node);
      } else {
        failures.put(node.name(), reasons);
      }
    }
    if (feasible.isEmpty()) {
      String message = FitError.message(all.size(), failures);
      log.info("Scheduler: unable to schedule {}: {}", pod.key(), message);
      queue.unschedulable(q);
      markUnschedulable(pod, message);
      ctx.events().event(pod.object(), EventRecorder.WARNING, "FailedScheduling", message);
      return;
    }
    NodeInfo chosen = scorer.select(pod, feasible, all, namespaceLabels);
    try {
      bindingSlots.acquire();
    } catch (InterruptedException e) {
      queue.backoff(q); // closing
      Thread.currentThread().interrupt();
      return;
    }
    cache.assume(pod, chosen.name());
    try {
      binder.execute(() -> {
        try {
          bindingCycle(q, pod, chosen);
        } finally {
          bindingSlots.release();
        }
      });
    } catch (RejectedExecutionException closing) {
      bindingSlots.release();
      cache.forget(pod.key());
      queue.backoff(q);
    }
  }

  /** Binds the assumed pod; on failure forgets it and retries it after the backoff. */
  private void bindingCycle(SchedulingQueue.QueuedPod q, PodInfo pod, NodeInfo chosen) {
    try {
      bind(pod, chosen.name());
    } catch (RuntimeException e) {
      cache.forget(pod.key());
      if (e instanceof StatusException s && (s.code() == 404 || s.code() == 409)) {
        queue.done(q); // the pod is gone, being deleted, or bound by someone else
        return;
      }
      log.warn("Scheduler: binding {} to {} failed: {}", pod.key(), chosen.name(), e.getMessage());
      ctx.events().event(pod.object(), EventRecorder.WARNING, "FailedScheduling",
          "Binding rejected: " + e.getMessage());
      queue.backoff(q); // after the event, so the event is recorded before any retry
      return;
    }
    queue.done(q);
    ctx.events().event(pod.object(), EventRecorder.NORMAL, "Scheduled",
        "Successfully assigned " + pod.key() + " to " + chosen.name());
  }

  private void bind(PodInfo pod, String node) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("apiVersion", "v1").put("kind", "Binding");
    body.putObject("metadata").put("name", pod.object().name()).put("namespace", pod.object().namespace())
        .put("uid", pod.object().uid());
    body.putObject("target").put("apiVersion", "v1").put("kind", "Node").put("name", node);
    pods.createSubresource(pod.object().namespace(), pod.object().name(), "binding", DynamicObject.of(body));
  }

  /**
   * Writes {@code PodScheduled=False/Unschedulable} with {@code message} through
   * {@code /status}, unless the pod already says exactly that (as kube, so a pod that stays
   * unschedulable is not rewritten on every attempt). One retry on a conflict, from a fresh
   * read; a pod gone meanwhile is left alone.
   */
  private void markUnschedulable(PodInfo pod, String message) {
    DynamicObject current = pod.object();
    for (int attempt = 0; attempt < 2; attempt++) {
      ObjectNode tree = current.toTree();
      if (!setCondition(tree, message)) {
        return;
      }
      try {
        pods.updateStatus(DynamicObject.of(tree));
        return;
      } catch (StatusException e) {
        if (e.code() == 404) {
          return;
        }
        if (e.code() != 409 || attempt == 1) {
          log.warn("Scheduler: cannot set PodScheduled on {}: {}", pod.key(), e.getMessage());
          return;
        }
        var fresh = pods.get(current.namespace(), current.name());
        if (fresh.isEmpty()) {
          return;
        }
        current = fresh.get();
        if (!current.get("spec", "nodeName").map(JsonNode::asText).orElse("").isEmpty()) {
          return; // bound meanwhile
        }
      }
    }
  }

  /** Sets the condition in {@code pod}; false when it already says that. */
  private boolean setCondition(ObjectNode pod, String message) {
    ObjectNode status = pod.get("status") instanceof ObjectNode s ? s : pod.putObject("status");
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
    ObjectNode condition = null;
    for (JsonNode c : conditions) {
      if (c instanceof ObjectNode o && "PodScheduled".equals(o.path("type").asText())) {
        condition = o;
      }
    }
    if (condition == null) {
      condition = conditions.addObject().put("type", "PodScheduled");
    } else if ("False".equals(condition.path("status").asText())
        && "Unschedulable".equals(condition.path("reason").asText())
        && message.equals(condition.path("message").asText())) {
      return false;
    }
    boolean transition = !"False".equals(condition.path("status").asText());
    condition.put("status", "False").putNull("lastProbeTime");
    if (transition || !condition.hasNonNull("lastTransitionTime")) {
      condition.put("lastTransitionTime", ObjectMetaRules.timestamp(ctx.clock().now()));
    }
    condition.put("reason", "Unschedulable").put("message", message);
    return true;
  }

  /**
   * Whether an unschedulable pod may fit once another pod is bound or relabelled: it has
   * required pod affinity (it waits for its peers), or topology spread constraints (a new pod
   * elsewhere lifts the minimum).
   */
  private static boolean waitsForOtherPods(PodInfo pod) {
    return !pod.affinity().required().isEmpty() || !pod.spreadConstraints().isEmpty();
  }

  /** Whether this scheduler takes the pod. */
  private static boolean responsible(PodInfo pod) {
    return pod.schedulerName().equals(PodInfo.DEFAULT_SCHEDULER) && pod.nodeName().isEmpty() && !pod.terminal();
  }

  /** Unscheduled pods: into the queue. */
  private final class UnscheduledPodHandler implements ResourceEventHandler<DynamicObject> {
    @Override
    public void onAdd(DynamicObject object, boolean isInInitialList) {
      PodInfo pod = PodInfo.of(object);
      if (responsible(pod)) {
        queue.add(pod);
      }
    }

    @Override
    public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
      PodInfo pod = PodInfo.of(newObject);
      if (responsible(pod)) {
        queue.update(pod);
      } else {
        queue.delete(pod.key());
      }
    }

    @Override
    public void onDelete(DynamicObject object, boolean deletedFinalStateUnknown) {
      queue.delete(object.namespace() + "/" + object.name());
    }
  }

  /** Every pod: the bound, unfinished ones use up their node. */
  private final class AssignedPodHandler implements ResourceEventHandler<DynamicObject> {
    @Override
    public void onAdd(DynamicObject object, boolean isInInitialList) {
      PodInfo pod = PodInfo.of(object);
      if (!pod.nodeName().isEmpty() && !pod.terminal()) {
        cache.putPod(pod);
        queue.moveAllToActiveOrBackoff(Scheduler::waitsForOtherPods);
      }
    }

    @Override
    public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
      PodInfo pod = PodInfo.of(newObject);
      if (pod.nodeName().isEmpty()) {
        return;
      }
      if (pod.terminal()) {
        cache.removePod(pod.key());
        if (!PodInfo.of(oldObject).terminal()) {
          queue.moveAllToActiveOrBackoff(); // its room is free
        }
      } else {
        cache.putPod(pod);
        if (!oldObject.labels().equals(newObject.labels())
            || oldObject.get("spec", "nodeName").map(JsonNode::asText).orElse("").isEmpty()) {
          queue.moveAllToActiveOrBackoff(Scheduler::waitsForOtherPods);
        }
      }
    }

    @Override
    public void onDelete(DynamicObject object, boolean deletedFinalStateUnknown) {
      PodInfo pod = PodInfo.of(object);
      if (pod.nodeName().isEmpty()) {
        return;
      }
      cache.removePod(pod.key());
      queue.moveAllToActiveOrBackoff();
    }
  }

  /**
   * Namespaces: a change of labels may make a {@code namespaceSelector} of a pod affinity term
   * select other pods, so the pods that wait are tried again (namespaces are read on demand).
   */
  private final class NamespaceHandler implements ResourceEventHandler<DynamicObject> {
    @Override
    public void onAdd(DynamicObject object, boolean isInInitialList) {
    }

    @Override
    public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
      if (!oldObject.labels().equals(newObject.labels())) {
        queue.moveAllToActiveOrBackoff();
      }
    }

    @Override
    public void onDelete(DynamicObject object, boolean deletedFinalStateUnknown) {
    }
  }

  /** Nodes: into the cache; a new or changed node may fit pods that waited. */
  private final class NodeHandler implements ResourceEventHandler<DynamicObject> {
    @Override
    public void onAdd(DynamicObject object, boolean isInInitialList) {
      cache.putNode(object);
      queue.moveAllToActiveOrBackoff();
    }

    @Override
    public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
      cache.putNode(newObject);
      if (schedulingRelevant(oldObject, newObject)) {
        queue.moveAllToActiveOrBackoff();
      }
    }

    @Override
    public void onDelete(DynamicObject object, boolean deletedFinalStateUnknown) {
      cache.removeNode(object.name());
    }

    /** Labels, taints, cordoning or allocatable changed (kube ignores, e.g., heartbeats). */
    private boolean schedulingRelevant(DynamicObject before, DynamicObject after) {
      if (!before.labels().equals(after.labels())) {
        return true;
      }
      ObjectNode a = before.toTree();
      ObjectNode b = after.toTree();
      return !a.path("spec").equals(b.path("spec"))
          || !a.path("status").path("allocatable").equals(b.path("status").path("allocatable"));
    }
  }
}

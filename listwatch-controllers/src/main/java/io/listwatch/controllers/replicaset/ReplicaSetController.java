package io.listwatch.controllers.replicaset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.OwnerReference;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.Lister;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.workqueue.RateLimiters;
import io.listwatch.client.workqueue.RateLimitingQueue;
import io.listwatch.controllers.Controller;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.ControllerExpectations;
import io.listwatch.controllers.ControllerRefManager;
import io.listwatch.controllers.PodControllerIndex;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's ReplicaSetController: keeps {@code spec.replicas} active pods for every ReplicaSet,
 * built on the shared informers of ReplicaSets and Pods, their listers and a rate-limited
 * workqueue of {@code namespace/name} keys.
 *
 * <h2>How it works</h2>
 * <ul>
 *   <li><b>Handlers</b> (informer threads) turn changes into keys: a ReplicaSet's own changes;
 *       a pod's changes into its controller's key (found by its controller ownerReference, name
 *       and uid), or for an orphan into the keys of every ReplicaSet of its namespace whose
 *       selector matches it. Pod adds and deletes are also counted against the
 *       {@link ControllerExpectations}. A pod that just became ready queues its ReplicaSet again
 *       after {@code minReadySeconds} + 1 s, so availability is counted when it is reached.
 *   <li><b>A sync</b> of one key ({@link #sync}, one worker per key at a time): claims the
 *       active pods of the namespace with a {@link ControllerRefManager} (adopting matching
 *       orphans, releasing owned pods that stopped matching); if the expectations are satisfied
 *       and the ReplicaSet is not being deleted, creates or deletes pods
 *       ({@link ReplicaSetScaler}); then writes the status ({@link ReplicaSetStatus}) through
 *       {@code /status}. A failed sync is retried with the queue's rate limit.
 *   <li><b>Events</b> on the ReplicaSet: {@code SuccessfulCreate}, {@code FailedCreate},
 *       {@code SuccessfulDelete}, {@code FailedDelete}, with kube's messages.
 * </ul>
 *
 * <p>Thread-safe: handlers run on the informers' handler threads, syncs on the workers;
 * shared state is the thread-safe queue and expectations.
 */
public final class ReplicaSetController implements Controller {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicaSetController.class);
  /** The component name of its events, as kube-controller-manager's. */
  public static final String COMPONENT = "replicaset-controller";

  private final ControllerContext context;
  private final SharedIndexInformer<DynamicObject> rsInformer;
  private final SharedIndexInformer<DynamicObject> podInformer;
  private final Lister<DynamicObject> rsLister;
  private final ResourceClient<DynamicObject> replicaSets;
  private final ResourceClient<DynamicObject> pods;
  private final ControllerExpectations expectations;
  private final RateLimitingQueue<String> queue;
  private final ReplicaSetScaler scaler;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean closed;

  /** Registers with {@code context}'s informers of ReplicaSets and Pods (before the factory starts). */
  public ReplicaSetController(ControllerContext context) {
    this.context = Objects.requireNonNull(context, "context");
    this.rsInformer = context.informers().informerFor(ResourceType.REPLICASETS, DynamicObject.CODEC);
    this.podInformer = context.informers().informerFor(ResourceType.PODS, DynamicObject.CODEC);
    this.rsLister = new Lister<>(rsInformer.getIndexer(), DynamicObject.CODEC);
    this.replicaSets = context.client().dynamic(ResourceType.REPLICASETS);
    this.pods = context.client().dynamic(ResourceType.PODS);
    this.expectations = new ControllerExpectations(context.clock());
    this.queue = RateLimitingQueue.builder(RateLimiters.<String>defaultControllerRateLimiter(context.clock()))
        .name("replicaset").clock(context.clock()).build();
    this.scaler = new ReplicaSetScaler(pods, expectations, context.events(), context.clock());
    rsInformer.addEventHandler(new ReplicaSetHandler());
    PodControllerIndex.addTo(podInformer);
    podInformer.addEventHandler(new PodHandler());
  }

  @Override
  public String name() {
    return "replicaset";
  }

  /** The expectations of this controller (for tests). */
  ControllerExpectations expectations() {
    return expectations;
  }

  /** The work queue (for tests). */
  RateLimitingQueue<String> queue() {
    return queue;
  }

  @Override
  public synchronized void run(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be positive: " + workers);
    }
    if (closed || !threads.isEmpty()) {
      return;
    }
    Thread starter = Thread.ofVirtual().name("replicaset-controller-start").unstarted(() -> {
      // kube's WaitForCacheSync polls every 100 ms as well
      while (!closed && !(rsInformer.hasSynced() && podInformer.hasSynced())) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
      }
      synchronized (this) {
        for (int i = 0; i < workers && !closed; i++) {
          Thread t = Thread.ofVirtual().name("replicaset-worker-" + i).unstarted(this::workerLoop);
          threads.add(t);
          t.start();
        }
      }
    });
    threads.add(starter);
    starter.start();
  }

  private void workerLoop() {
    while (true) {
      Optional<String> item;
      try {
        item = queue.get();
      } catch (InterruptedException e) {
        return;
      }
      if (item.isEmpty()) {
        return;
      }
      String key = item.get();
      try {
        sync(key);
        queue.forget(key);
      } catch (RuntimeException e) {
        LOG.info("ReplicaSetController: sync of {} failed, retrying: {}", key, e.getMessage());
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  }

  /** kube's {@code syncReplicaSet} for {@code key} ({@code namespace/name}); throws to be retried. */
  void sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    Optional<DynamicObject> cached = rsLister.namespace(namespace).get(name);
    if (cached.isEmpty()) {
      expectations.deleteExpectations(key);
      return;
    }
    DynamicObject rs = withTypeMeta(cached.get());
    boolean needsSync = expectations.satisfiedExpectations(key);
    Optional<LabelSelector> selector = ReplicaSetSpec.selector(rs);
    if (selector.isEmpty()) {
      LOG.warn("ReplicaSetController: {} has no selector; nothing to do", key);
      return;
    }
    List<DynamicObject> active = new ArrayList<>();
    for (DynamicObject pod : PodControllerIndex.podsOf(podInformer.getIndexer(), namespace, rs.uid(), true)) {
      if (Pods.isActive(pod)) {
        active.add(pod);
      }
    }
    ControllerRefManager refs = new ControllerRefManager(pods, ResourceType.REPLICASETS, rs, selector.get(),
        () -> replicaSets.get(namespace, name));
    ControllerRefManager.Claimed claimed = refs.claim(active);
    if (!claimed.errors().isEmpty()) {
      throw claimed.errors().getFirst(); // kube returns before managing replicas as well
    }
    RuntimeException manageError = null;
    if (needsSync && !ControllerRefManager.isBeingDeleted(rs)) {
      try {
        scaler.manageReplicas(key, rs, claimed.owned(), relatedPods(rs, claimed.owned()));
      } catch (RuntimeException e) {
        manageError = e;
      }
    }
    ObjectNode status = ReplicaSetStatus.calculate(rs, claimed.owned(), manageError, context.clock().now());
    DynamicObject updated = ReplicaSetStatus.update(replicaSets, rs, status);
    int replicas = ReplicaSetSpec.replicas(updated);
    long minReadySeconds = ReplicaSetSpec.minReadySeconds(updated);
    if (manageError == null && minReadySeconds > 0
        && updated.get("status", "readyReplicas").map(n -> n.asInt()).orElse(0) == replicas
        && updated.get("status", "availableReplicas").map(n -> n.asInt()).orElse(0) != replicas) {
      queue.addAfter(key, Duration.ofSeconds(minReadySeconds));
    }
    if (manageError != null) {
      throw manageError;
    }
  }

  /**
   * The active pods of every ReplicaSet with the same controller as {@code rs} (the same
   * Deployment's), or {@code owned} when {@code rs} has no controller (kube's
   * {@code getIndirectlyRelatedPods}).
   */
  private List<DynamicObject> relatedPods(DynamicObject rs, List<DynamicObject> owned) {
    Optional<OwnerReference> owner = ControllerRefManager.controllerOf(rs);
    if (owner.isEmpty()) {
      return owned;
    }
    Set<String> siblings = new LinkedHashSet<>();
    siblings.add(rs.uid());
    for (DynamicObject other : rsLister.namespace(rs.namespace()).list(LabelSelector.everything())) {
      if (ControllerRefManager.controllerOf(other).map(o -> o.uid().equals(owner.get().uid())).orElse(false)) {
        siblings.add(other.uid());
      }
    }
    List<DynamicObject> related = new ArrayList<>();
    for (String uid : siblings) {
      for (DynamicObject pod : PodControllerIndex.podsOf(podInformer.getIndexer(), rs.namespace(), uid, false)) {
        if (Pods.isActive(pod)) {
          related.add(pod);
        }
      }
    }
    return related;
  }

  /** Objects of a list carry no kind; events and ownerReferences need it. */
  private static DynamicObject withTypeMeta(DynamicObject rs) {
    if (!rs.kind().isEmpty() && !rs.apiVersion().isEmpty()) {
      return rs;
    }
    ObjectNode tree = rs.toTree();
    tree.put("apiVersion", ResourceType.REPLICASETS.apiVersion());
    tree.put("kind", ResourceType.REPLICASETS.kind());
    return DynamicObject.of(tree);
  }

  private static String key(DynamicObject o) {
    return o.namespace() + "/" + o.name();
  }

  private void enqueue(DynamicObject rs) {
    queue.add(key(rs));
  }

  /** The ReplicaSet {@code ref} names, if it is a ReplicaSet in the cache with that uid (kube's {@code resolveControllerRef}). */
  private Optional<DynamicObject> resolveControllerRef(String namespace, OwnerReference ref) {
    if (!ResourceType.REPLICASETS.kind().equals(ref.kind())) {
      return Optional.empty();
    }
    return rsLister.namespace(namespace).get(ref.name()).filter(rs -> rs.uid().equals(ref.uid()));
  }

  /** The ReplicaSets of the pod's namespace whose selector matches it (kube's {@code getPodReplicaSets}). */
  private List<DynamicObject> replicaSetsSelecting(DynamicObject pod) {
    List<DynamicObject> out = new ArrayList<>();
    for (DynamicObject rs : rsLister.namespace(pod.namespace()).list(LabelSelector.everything())) {
      try {
        if (ReplicaSetSpec.selector(rs).map(s -> s.matches(pod.labels())).orElse(false)) {
          out.add(rs);
        }
      } catch (StatusException e) {
        LOG.debug("ReplicaSetController: {} has a selector that does not parse: {}", key(rs), e.getMessage());
      }
    }
    return out;
  }

  /** Queues the ReplicaSets' keys; runs on the ReplicaSet informer's handler thread. */
  private final class ReplicaSetHandler implements ResourceEventHandler<DynamicObject> {
    @Override
    public void onAdd(DynamicObject rs, boolean isInInitialList) {
      enqueue(rs);
    }

    @Override
    public void onUpdate(DynamicObject oldRs, DynamicObject newRs) {
      if (!oldRs.uid().equals(newRs.uid())) { // deleted and recreated under the same name
        expectations.deleteExpectations(key(oldRs));
      }
      enqueue(newRs);
    }

    @Override
    public void onDelete(DynamicObject rs, boolean deletedFinalStateUnknown) {
      expectations.deleteExpectations(key(rs));
      enqueue(rs);
    }
  }

  /** Maps pod changes to ReplicaSet keys; runs on the pod informer's handler thread. */
  private final class PodHandler implements ResourceEventHandler<DynamicObject> {
    @Override
    public void onAdd(DynamicObject pod, boolean isInInitialList) {
      if (ControllerRefManager.isBeingDeleted(pod)) {
        onDelete(pod, false); // seen for the first time already terminating: it will not count
        return;
      }
      Optional<OwnerReference> ref = ControllerRefManager.controllerOf(pod);
      if (ref.isPresent()) {
        resolveControllerRef(pod.namespace(), ref.get()).ifPresent(rs -> {
          expectations.creationObserved(key(rs));
          enqueue(rs);
        });
        return;
      }
      replicaSetsSelecting(pod).forEach(ReplicaSetController.this::enqueue);
    }

    @Override
    public void onUpdate(DynamicObject oldPod, DynamicObject newPod) {
      if (oldPod.resourceVersion().equals(newPod.resourceVersion())) {
        return; // a resync: nothing changed
      }
      boolean labelsChanged = !oldPod.labels().equals(newPod.labels());
      if (ControllerRefManager.isBeingDeleted(newPod)) {
        onDelete(newPod, false); // kube counts a graceful deletion's start as the deletion
        if (labelsChanged) {
          onDelete(oldPod, false);
        }
        return;
      }
      Optional<OwnerReference> oldRef = ControllerRefManager.controllerOf(oldPod);
      Optional<OwnerReference> newRef = ControllerRefManager.controllerOf(newPod);
      boolean refChanged = !oldRef.equals(newRef);
      if (refChanged && oldRef.isPresent()) {
        resolveControllerRef(oldPod.namespace(), oldRef.get()).ifPresent(ReplicaSetController.this::enqueue);
      }
      if (newRef.isPresent()) {
        resolveControllerRef(newPod.namespace(), newRef.get()).ifPresent(rs -> {
          enqueue(rs);
          long minReady = ReplicaSetSpec.minReadySeconds(rs);
          if (minReady > 0 && !Pods.isReady(oldPod) && Pods.isReady(newPod)) {
            queue.addAfter(key(rs), Duration.ofSeconds(minReady + 1));
          }
        });
        return;
      }
      if (labelsChanged || refChanged) {
        replicaSetsSelecting(newPod).forEach(ReplicaSetController.this::enqueue);
      }
    }

    @Override
    public void onDelete(DynamicObject pod, boolean deletedFinalStateUnknown) {
      Optional<OwnerReference> ref = ControllerRefManager.controllerOf(pod);
      if (ref.isEmpty()) {
        return;
      }
      resolveControllerRef(pod.namespace(), ref.get()).ifPresent(rs -> {
        expectations.deletionObserved(key(rs), Pods.key(pod));
        enqueue(rs);
      });
    }
  }

  /** Shuts the queue down and waits (bounded) for the workers. Idempotent. */
  @Override
  public void close() {
    List<Thread> toJoin;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toJoin = List.copyOf(threads);
    }
    queue.shutDown();
    for (Thread t : toJoin) {
      try {
        t.join(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}

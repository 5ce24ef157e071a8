package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.Indexer;
import io.listwatch.client.cache.Lister;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.ResourceEventHandlerRegistration;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.workqueue.RateLimiters;
import io.listwatch.client.workqueue.RateLimitingQueue;
import io.listwatch.controllers.Controller;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.PodControllerIndex;
import io.listwatch.controllers.events.EventRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's deployment controller. Informer handlers on Deployments, ReplicaSets and Pods queue
 * the key of the deployment concerned (a ReplicaSet's controller, or for an orphan every
 * deployment whose selector matches it; a deleted pod's deployment when it uses Recreate);
 * workers take keys from a rate-limited workqueue and run {@link #syncDeployment}, which reads
 * only the listers and writes through the client:
 *
 * <ol>
 *   <li>claim ReplicaSets (adopt matching orphans, release owned ones that no longer match);
 *   <li>a deployment being deleted only gets its status; Progressing tracks pause and resume;
 *   <li>paused, or scaled (an active ReplicaSet sized for another replica count): scale
 *       (proportionally across ReplicaSets during a rollout), clean up, status;
 *   <li>otherwise one step of the strategy's rollout (RollingUpdate or Recreate), then status
 *       with the Progressing condition and its deadline.
 * </ol>
 *
 * <p>A failed sync is retried with the queue's rate limiter up to 15 times, as kube's.
 *
 * <p>Thread-safe: handlers run on the informers' threads and only queue keys; each key is
 * synced by one worker at a time (the workqueue's guarantee), and a sync's state lives in that
 * worker.
 */
public final class DeploymentController implements Controller {

  private static final Logger LOG = LoggerFactory.getLogger(DeploymentController.class);
  /** kube's maxRetries: after this many failed syncs a key is dropped until its next change. */
  static final int MAX_RETRIES = 15;

  private final ControllerContext context;
  private final ResourceClient<DynamicObject> deploymentClient;
  private final ResourceClient<DynamicObject> rsClient;
  private final Lister<DynamicObject> deployments;
  private final Lister<DynamicObject> replicaSets;
  private final Indexer<DynamicObject> podIndexer;
  private final List<ResourceEventHandlerRegistration> registrations = new ArrayList<>();
  private final RateLimitingQueue<String> queue;
  private final DeploymentSync sync;
  private final RollingUpdate rolling;
  private final Recreate recreate;
  private final List<Thread> workers = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Registers with the context's informers; call before the factory starts. */
  public DeploymentController(ControllerContext context) {
    this.context = context;
    this.deploymentClient = context.client().dynamic(ResourceType.DEPLOYMENTS);
    this.rsClient = context.client().dynamic(ResourceType.REPLICASETS);
    SharedIndexInformer<DynamicObject> dInformer =
        context.informers().informerFor(ResourceType.DEPLOYMENTS, DynamicObject.CODEC);
    SharedIndexInformer<DynamicObject> rsInformer =
        context.informers().informerFor(ResourceType.REPLICASETS, DynamicObject.CODEC);
    SharedIndexInformer<DynamicObject> podInformer =
        context.informers().informerFor(ResourceType.PODS, DynamicObject.CODEC);
    this.deployments = new Lister<>(dInformer.getIndexer(), DynamicObject.CODEC);
    this.replicaSets = new Lister<>(rsInformer.getIndexer(), DynamicObject.CODEC);
    PodControllerIndex.addTo(podInformer);
    this.podIndexer = podInformer.getIndexer();
    this.queue = RateLimitingQueue.<String>builder(RateLimiters.defaultControllerRateLimiter(context.clock()))
        .name("deployment").clock(context.clock()).build();
    this.sync = new DeploymentSync(context.client(), replicaSets, context.events(), context.clock());
    RolloutProgress progress = new RolloutProgress(sync, new RolloutProgress.Requeue() {
      @Override
      public void after(Deployment d, Duration delay) {
        queue.addAfter(key(d.namespace(), d.name()), delay);
      }

      @Override
      public void rateLimited(Deployment d) {
        queue.addRateLimited(key(d.namespace(), d.name()));
      }
    });
    this.rolling = new RollingUpdate(sync, progress);
    this.recreate = new Recreate(sync, progress);
    registrations.add(dInformer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(DynamicObject d, boolean initial) {
        enqueue(d);
      }

      @Override
      public void onUpdate(DynamicObject old, DynamicObject d) {
        enqueue(d);
      }

      @Override
      public void onDelete(DynamicObject d, boolean finalStateUnknown) {
        enqueue(d);
      }
    }));
    registrations.add(rsInformer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(DynamicObject rs, boolean initial) {
        replicaSetAdded(rs);
      }

      @Override
      public void onUpdate(DynamicObject old, DynamicObject rs) {
        replicaSetUpdated(old, rs);
      }

      @Override
      public void onDelete(DynamicObject rs, boolean finalStateUnknown) {
        controllerOf(rs).ifPresent(this::enqueueOwner);
      }

      private void enqueueOwner(DynamicObject d) {
        enqueue(d);
      }
    }));
    registrations.add(podInformer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onDelete(DynamicObject pod, boolean finalStateUnknown) {
        podDeleted(pod);
      }
    }));
  }

  @Override
  public String name() {
    return "deployment";
  }

  @Override
  public void run(int workerCount) {
    if (workerCount < 1) {
      throw new IllegalArgumentException("workers must be at least 1: " + workerCount);
    }
    synchronized (workers) {
      if (closed.get() || !workers.isEmpty()) {
        return;
      }
      for (int i = 0; i < workerCount; i++) {
        Thread t = Thread.ofPlatform().name("deployment-worker-" + i).daemon().unstarted(this::work);
        workers.add(t);
        t.start();
      }
    }
  }

  /** A worker: waits for the caches, then syncs keys until the queue shuts down. */
  private void work() {
    try {
      while (!registrations.stream().allMatch(ResourceEventHandlerRegistration::hasSynced)) {
        if (closed.get()) {
          return;
        }
        Thread.sleep(100); // client-go's WaitForCacheSync polls at the same period
      }
      while (true) {
        Optional<String> key = queue.get();
        if (key.isEmpty()) {
          return;
        }
        try {
          syncDeployment(key.get());
          queue.forget(key.get());
        } catch (RuntimeException e) {
          if (queue.numRequeues(key.get()) < MAX_RETRIES) {
            LOG.info("DeploymentController: error syncing deployment {}, retrying: {}", key.get(), e.toString());
            queue.addRateLimited(key.get());
          } else {
            LOG.warn("DeploymentController: dropping deployment {} out of the queue: {}", key.get(), e.toString());
            queue.forget(key.get());
          }
        } finally {
          queue.done(key.get());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    queue.shutDown();
    List<Thread> toJoin;
    synchronized (workers) {
      toJoin = List.copyOf(workers);
    }
    for (Thread t : toJoin) {
      try {
        t.join(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  private void enqueue(DynamicObject d) {
    queue.add(key(d.namespace(), d.name()));
  }

  /** The deployment named by the object's controller reference, if it exists with that uid. */
  private Optional<DynamicObject> controllerOf(DynamicObject object) {
    Optional<JsonNode> refs = object.get("metadata", "ownerReferences");
    if (refs.isEmpty()) {
      return Optional.empty();
    }
    for (JsonNode ref : refs.get()) {
      if (!ref.path("controller").asBoolean(false)) {
        continue;
      }
      if (!ref.path("kind").asText().equals("Deployment") || !ref.path("apiVersion").asText().startsWith("apps/")) {
        return Optional.empty();
      }
      return deployments.get(key(object.namespace(), ref.path("name").asText()))
          .filter(d -> d.uid().equals(ref.path("uid").asText()));
    }
    return Optional.empty();
  }

  private boolean hasController(DynamicObject object) {
    Optional<JsonNode> refs = object.get("metadata", "ownerReferences");
    if (refs.isPresent()) {
      for (JsonNode ref : refs.get()) {
        if (ref.path("controller").asBoolean(false)) {
          return true;
        }
      }
    }
    return false;
  }

  /** kube's {@code getDeploymentsForReplicaSet}: deployments whose non-empty selector matches the orphan. */
  private List<DynamicObject> deploymentsMatching(DynamicObject rs) {
    List<DynamicObject> out = new ArrayList<>();
    for (DynamicObject d : deployments.namespace(rs.namespace()).list(LabelSelector.everything())) {
      Deployment view = Deployment.of(d);
      if (!view.selectsEverything() && view.labelSelector().matches(rs.labels())) {
        out.add(d);
      }
    }
    return out;
  }

  private void replicaSetAdded(DynamicObject rs) {
    if (rs.get("metadata", "deletionTimestamp").filter(n -> !n.isNull()).isPresent()) {
      controllerOf(rs).ifPresent(this::enqueue);
      return;
    }
    if (hasController(rs)) {
      controllerOf(rs).ifPresent(this::enqueue);
      return;
    }
    deploymentsMatching(rs).forEach(this::enqueue);
  }

  private void replicaSetUpdated(DynamicObject old, DynamicObject rs) {
    if (old.resourceVersion().equals(rs.resourceVersion())) {
      return; // a resync: nothing changed
    }
    Optional<DynamicObject> oldOwner = controllerOf(old);
    Optional<DynamicObject> owner = controllerOf(rs);
    if (oldOwner.isPresent() && (owner.isEmpty() || !owner.get().uid().equals(oldOwner.get().uid()))) {
      enqueue(oldOwner.get());
    }
    if (hasController(rs)) {
      owner.ifPresent(this::enqueue);
      return;
    }
    if (!old.labels().equals(rs.labels()) || hasController(old)) {
      deploymentsMatching(rs).forEach(this::enqueue);
    }
  }

  /** kube's {@code deletePod}: a Recreate rollout waits for the old pods to be gone. */
  private void podDeleted(DynamicObject pod) {
    Optional<JsonNode> refs = pod.get("metadata", "ownerReferences");
    if (refs.isEmpty()) {
      return;
    }
    for (JsonNode ref : refs.get()) {
      if (ref.path("controller").asBoolean(false) && ref.path("kind").asText().equals("ReplicaSet")) {
        replicaSets.get(key(pod.namespace(), ref.path("name").asText()))
            .filter(rs -> rs.uid().equals(ref.path("uid").asText()))
            .flatMap(this::controllerOf)
            .filter(d -> !Deployment.of(d).isRollingUpdate())
            .ifPresent(this::enqueue);
        return;
      }
    }
  }

  /**
   * kube's {@code syncDeployment} for one {@code namespace/name} key: a missing deployment is
   * done with; otherwise one pass of the steps in the class comment.
   *
   * @throws RuntimeException when a write fails; the caller requeues the key
   */
  void syncDeployment(String key) {
    Optional<DynamicObject> cached = deployments.get(key);
    if (cached.isEmpty()) {
      return;
    }
    Deployment d = Deployment.of(cached.get());
    if (d.selectsEverything()) {
      context.events().event(cached.get(), EventRecorder.WARNING, "SelectingAll",
          "This deployment is selecting all pods. A non-empty selector is required.");
      if (d.status().observedGeneration() < d.generation()) {
        d.setStatus(d.status().withObservedGeneration(d.generation()));
        sync.updateStatus(d);
      }
      return;
    }
    List<ReplicaSet> rsList = claimReplicaSets(d);
    if (d.deleting()) {
      sync.syncStatusOnly(d, rsList);
      return;
    }
    sync.checkPausedConditions(d);
    if (d.paused() || sync.isScalingEvent(d, rsList)) {
      sync.sync(d, rsList);
      return;
    }
    if (d.isRollingUpdate()) {
      rolling.rollout(d, rsList);
    } else {
      recreate.rollout(d, rsList, podsByReplicaSet(d, rsList));
    }
  }

  private List<ReplicaSet> claimReplicaSets(Deployment d) {
    List<ReplicaSet> inNamespace = new ArrayList<>();
    for (DynamicObject rs : replicaSets.namespace(d.namespace()).list(LabelSelector.everything())) {
      inNamespace.add(ReplicaSet.of(rs));
    }
    ReplicaSetClaims claims = new ReplicaSetClaims(rsClient, d, () -> {
      try {
        return deploymentClient.get(d.namespace(), d.name());
      } catch (StatusException e) {
        return Optional.empty();
      }
    });
    return claims.claim(inNamespace);
  }

  /** kube's {@code getPodMapForDeployment}: the selector's pods by the uid of the ReplicaSet controlling them. */
  private Map<String, List<JsonNode>> podsByReplicaSet(Deployment d, List<ReplicaSet> rsList) {
    Map<String, List<JsonNode>> out = new HashMap<>();
    rsList.forEach(rs -> out.put(rs.uid(), new ArrayList<>()));
    LabelSelector selector = d.labelSelector();
    for (ReplicaSet rs : rsList) {
      for (DynamicObject pod : PodControllerIndex.podsOf(podIndexer, d.namespace(), rs.uid(), false)) {
        if (selector.matches(pod.labels())) {
          out.get(rs.uid()).add(pod.toTree());
        }
      }
    }
    return out;
  }
}

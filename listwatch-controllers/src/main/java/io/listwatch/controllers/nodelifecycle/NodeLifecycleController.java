package io.listwatch.controllers.nodelifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.controllers.Controller;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's node lifecycle controller, for nodes that stop sending heartbeats.
 *
 * <h2>What it does</h2>
 * Every {@code monitorPeriod} (kube: 5 s) it looks at each Node and its Lease in
 * {@code kube-node-lease} (from the informers). A node is healthy while its Lease (or, without
 * one, its Ready condition's {@code lastHeartbeatTime}) has changed within
 * {@code gracePeriod} (kube's {@code node-monitor-grace-period}: 40 s) of this controller's
 * clock; the controller times changes itself, as kube does, so clock skew between nodes does
 * not matter. A node first seen gets a full grace period. When a node is not healthy:
 * <ul>
 *   <li>its conditions become {@code Unknown} (reason {@code NodeStatusUnknown}, "Kubelet
 *       stopped posting node status.") and it is tainted
 *       {@value #UNREACHABLE_TAINT}{@code :NoSchedule} and {@code :NoExecute};
 *   <li>its pods are evicted (deleted, with their own grace period) once they have been on the
 *       tainted node longer than they tolerate: a pod's toleration of the NoExecute taint says
 *       for how long ({@code tolerationSeconds}, or for ever without it, as static pods do); a
 *       pod without one gets {@code podEvictionTimeout} (kube's default toleration: 300 s).
 * </ul>
 * Once the Lease is renewed again, the taints are removed (the node agent sets Ready itself).
 * Every pass also keeps {@value #NOT_READY_TAINT}{@code :NoSchedule} on exactly the nodes whose
 * Ready condition is False (kube's NoSchedule tainting by condition, for that condition): a new
 * Node has it from admission until its agent reports it Ready.
 *
 * <h2>Threads</h2>
 * One thread, {@code NodeLifecycleController}, runs every pass; the clock's timer only hands
 * passes to it. {@link #close} is idempotent and may be called from any thread.
 */
public final class NodeLifecycleController implements Controller {

  private static final Logger log = LoggerFactory.getLogger(NodeLifecycleController.class);

  /** The taint key of nodes whose heartbeat stopped. */
  public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
  /** The taint key of nodes whose Ready condition is False (and of every new Node, by admission). */
  public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
  /** The namespace of the nodes' heartbeat Leases. */
  static final String LEASE_NAMESPACE = "kube-node-lease";

  /**
   * The controller's timings.
   *
   * @param monitorPeriod how often nodes are checked (kube: 5 s)
   * @param gracePeriod how long a node may go without a heartbeat (kube: 40 s)
   * @param podEvictionTimeout how long pods without a toleration of their own stay on an
   *     unreachable node (kube's default toleration: 300 s)
   */
  public record Settings(Duration monitorPeriod, Duration gracePeriod, Duration podEvictionTimeout) {
    /** kube's defaults. */
    public static final Settings DEFAULTS =
        new Settings(Duration.ofSeconds(5), Duration.ofSeconds(40), Duration.ofSeconds(300));

    public Settings {
      for (Duration d : new Duration[] {monitorPeriod, gracePeriod, podEvictionTimeout}) {
        if (Objects.requireNonNull(d, "durations").isNegative() || d.isZero()) {
          throw new IllegalArgumentException("durations must be positive, got " + d);
        }
      }
    }
  }

  /** When this controller last saw a node's heartbeat change. */
  private record Probe(String heartbeat, Instant observedAt) {
  }

  private final ResourceClient<DynamicObject> nodes;
  private final ResourceClient<DynamicObject> pods;
  private final SharedIndexInformer<DynamicObject> nodeInformer;
  private final SharedIndexInformer<DynamicObject> leaseInformer;
  private final SharedIndexInformer<DynamicObject> podInformer;
  private final EventRecorder events;
  private final Clock clock;
  private final Settings settings;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("NodeLifecycleController").factory());
  /** Confined to the controller's thread. */
  private final Map<String, Probe> probes = new HashMap<>();
  /** When each unhealthy node was tainted. Confined to the controller's thread. */
  private final Map<String, Instant> taintedAt = new HashMap<>();
  @GuardedBy("this")
  private Clock.Cancellable timer;
  @GuardedBy("this")
  private boolean closed;

  public NodeLifecycleController(ControllerContext context, Settings settings) {
    this.nodes = context.client().dynamic(ResourceType.NODES);
    this.pods = context.client().dynamic(ResourceType.PODS);
    this.nodeInformer = context.informers().informerFor(ResourceType.NODES, DynamicObject.CODEC);
    this.leaseInformer = context.informers().informerFor(ResourceType.LEASES, DynamicObject.CODEC);
    this.podInformer = context.informers().informerFor(ResourceType.PODS, DynamicObject.CODEC);
    this.events = context.events();
    this.clock = context.clock();
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String name() {
    return "node-lifecycle";
  }

  /** Starts the periodic passes once the informers have synced ({@code workers} is ignored: one thread). */
  @Override
  public void run(int workers) {
    thread.execute(() -> {
      try {
        while (!(nodeInformer.hasSynced() && leaseInformer.hasSynced() && podInformer.hasSynced())) {
          synchronized (this) {
            if (closed) {
              return;
            }
          }
          Thread.sleep(50);
        }
      } catch (InterruptedException e) {
        return;
      }
      schedule();
    });
  }

  private synchronized void schedule() {
    if (!closed) {
      timer = clock.schedule(settings.monitorPeriod(), () -> {
        try {
          thread.execute(() -> {
            monitor();
            schedule();
          });
        } catch (RejectedExecutionException e) {
          // closed meanwhile
        }
      });
    }
  }

  /** One pass over every node (package-private: tests call it directly). */
  void monitor() {
    Instant now = clock.now();
    for (DynamicObject node : nodeInformer.getStore().list()) {
      try {
        monitor(node, now);
      } catch (RuntimeException e) {
        log.warn("NodeLifecycleController: node {}: {}", node.name(), e.toString());
      }
    }
    var names = nodeInformer.getStore().list().stream().map(DynamicObject::name).toList();
    probes.keySet().retainAll(names);
    taintedAt.keySet().retainAll(names);
  }

  private void monitor(DynamicObject cached, Instant now) {
    DynamicObject node = taintByReadyCondition(cached);
    String heartbeat = leaseInformer.getStore().getByKey(LEASE_NAMESPACE + "/" + node.name())
        .map(l -> "lease " + l.get("spec", "renewTime").map(JsonNode::asText).orElse("") + " " + l.resourceVersion())
        .orElseGet(() -> "status " + readyCondition(node).path("lastHeartbeatTime").asText(""));
    Probe probe = probes.get(node.name());
    if (probe == null || !probe.heartbeat().equals(heartbeat)) {
      probe = new Probe(heartbeat, now);
      probes.put(node.name(), probe);
    }
    boolean healthy = !now.isAfter(probe.observedAt().plus(settings.gracePeriod()));
    if (healthy) {
      if (taintedAt.remove(node.name()) != null || hasUnreachableTaint(node)) {
        setTaints(node, false, now);
      }
      return;
    }
    Instant tainted = taintedAt.get(node.name());
    if (tainted == null) {
      if (!readyCondition(node).path("status").asText("").equals("Unknown")) {
        markUnknown(node, now);
      }
      tainted = hasUnreachableTaint(node) ? taintTime(node, now) : setTaints(node, true, now);
      taintedAt.put(node.name(), tainted);
    }
    evictPods(node, tainted, now);
  }

  /**
   * kube's NoSchedule tainting pass, for the Ready condition's taint: a node carries
   * {@value #NOT_READY_TAINT}{@code :NoSchedule} exactly while its Ready condition is False.
   * The {@code TaintNodesByCondition} admission plug-in puts it on every new Node; this takes
   * it off once the node agent reports the node Ready. Returns the node as it is now.
   */
  private DynamicObject taintByReadyCondition(DynamicObject cached) {
    boolean notReady = readyCondition(cached).path("status").asText("").equals("False");
    if (notReady == hasNotReadyTaint(cached)) {
      return cached;
    }
    DynamicObject node = nodes.get("", cached.name()).orElse(null);
    if (node == null || notReady == hasNotReadyTaint(node)) {
      return node == null ? cached : node;
    }
    ObjectNode tree = node.toTree();
    ObjectNode spec = tree.with("spec");
    ArrayNode kept = spec.arrayNode();
    for (JsonNode t : spec.path("taints")) {
      if (!isNotReadyTaint(t)) {
        kept.add(t);
      }
    }
    if (notReady) {
      kept.addObject().put("key", NOT_READY_TAINT).put("effect", "NoSchedule");
    }
    if (kept.isEmpty()) {
      spec.remove("taints");
    } else {
      spec.set("taints", kept);
    }
    try {
      return nodes.update(DynamicObject.of(tree));
    } catch (StatusException e) {
      log.debug("NodeLifecycleController: tainting node {} by its Ready condition: {}", cached.name(), e.getMessage());
      return node;
    }
  }

  private static boolean hasNotReadyTaint(DynamicObject node) {
    for (JsonNode t : node.get("spec", "taints").orElse(com.fasterxml.jackson.databind.node.MissingNode
        .getInstance())) {
      if (isNotReadyTaint(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNotReadyTaint(JsonNode taint) {
    return taint.path("key").asText().equals(NOT_READY_TAINT) && taint.path("effect").asText().equals("NoSchedule");
  }

  private static JsonNode readyCondition(DynamicObject node) {
    for (JsonNode c : node.get("status", "conditions").orElse(com.fasterxml.jackson.databind.node.MissingNode
        .getInstance())) {
      if (c.path("type").asText().equals("Ready")) {
        return c;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private void markUnknown(DynamicObject node, Instant now) {
    ObjectNode tree = node.toTree();
    JsonNode conditions = tree.path("status").path("conditions");
    if (!(conditions instanceof ArrayNode list) || list.isEmpty()) {
      ArrayNode created = tree.with("status").putArray("conditions");
      created.addObject().put("type", "Ready");
      conditions = created;
    }
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    for (JsonNode c : conditions) {
      ObjectNode o = (ObjectNode) c;
      if (!o.path("status").asText().equals("Unknown")) {
        o.put("status", "Unknown").put("lastTransitionTime", time);
      }
      o.put("reason", "NodeStatusUnknown").put("message", "Kubelet stopped posting node status.");
    }
    nodes.updateStatus(DynamicObject.of(tree));
    events.event(node, EventRecorder.NORMAL, "NodeNotReady", "Node " + node.name() + " status is now: NodeNotReady");
    log.info("NodeLifecycleController: node {} has not renewed its lease within {}; marked NotReady", node.name(),
        settings.gracePeriod());
  }

  private static boolean hasUnreachableTaint(DynamicObject node) {
    for (JsonNode t : node.get("spec", "taints").orElse(com.fasterxml.jackson.databind.node.MissingNode
        .getInstance())) {
      if (t.path("key").asText().equals(UNREACHABLE_TAINT) && t.path("effect").asText().equals("NoExecute")) {
        return true;
      }
    }
    return false;
  }

  private static Instant taintTime(DynamicObject node, Instant fallback) {
    for (JsonNode t : node.get("spec", "taints").orElseThrow()) {
      if (t.path("key").asText().equals(UNREACHABLE_TAINT) && t.path("effect").asText().equals("NoExecute")) {
        try {
          return Instant.parse(t.path("timeAdded").asText(""));
        } catch (DateTimeParseException e) {
          return fallback;
        }
      }
    }
    return fallback;
  }

  /** Adds or removes the unreachable taints (from the latest Node); returns the time added. */
  private Instant setTaints(DynamicObject cached, boolean add, Instant now) {
    DynamicObject node = nodes.get("", cached.name()).orElse(null);
    if (node == null) {
      return now;
    }
    ObjectNode tree = node.toTree();
    ObjectNode spec = tree.with("spec");
    ArrayNode kept = spec.arrayNode();
    for (JsonNode t : spec.path("taints")) {
      if (!t.path("key").asText().equals(UNREACHABLE_TAINT)) {
        kept.add(t);
      }
    }
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    if (add) {
      kept.addObject().put("key", UNREACHABLE_TAINT).put("effect", "NoSchedule");
      kept.addObject().put("key", UNREACHABLE_TAINT).put("effect", "NoExecute").put("timeAdded", time);
    }
    if (kept.isEmpty()) {
      spec.remove("taints");
    } else {
      spec.set("taints", kept);
    }
    try {
      nodes.update(DynamicObject.of(tree));
    } catch (StatusException e) {
      log.debug("NodeLifecycleController: tainting node {}: {}", cached.name(), e.getMessage());
    }
    return now;
  }

  private void evictPods(DynamicObject node, Instant taintedAt, Instant now) {
    for (DynamicObject pod : podInformer.getStore().list()) {
      if (!pod.get("spec", "nodeName").map(JsonNode::asText).orElse("").equals(node.name())
          || pod.get("metadata", "deletionTimestamp").filter(n -> !n.isNull()).isPresent()) {
        continue;
      }
      OptionalLong tolerated = toleratedSeconds(pod);
      if (tolerated.isEmpty()) {
        continue;
      }
      if (!now.isBefore(taintedAt.plusSeconds(tolerated.getAsLong()))) {
        try {
          pods.delete(pod.namespace(), pod.name());
          events.event(pod, EventRecorder.NORMAL, "TaintManagerEviction",
              "Marking for deletion Pod " + pod.namespace() + "/" + pod.name());
        } catch (StatusException e) {
          log.debug("NodeLifecycleController: evicting {}/{}: {}", pod.namespace(), pod.name(), e.getMessage());
        }
      }
    }
  }

  /**
   * How long {@code pod} tolerates the unreachable NoExecute taint: its matching toleration's
   * {@code tolerationSeconds}, empty (for ever) for a matching toleration without it, the
   * default timeout without a matching toleration.
   */
  OptionalLong toleratedSeconds(DynamicObject pod) {
    for (JsonNode t : pod.get("spec", "tolerations").orElse(com.fasterxml.jackson.databind.node.MissingNode
        .getInstance())) {
      String effect = t.path("effect").asText("");
      String key = t.path("key").asText("");
      String operator = t.path("operator").asText("Equal");
      boolean keyMatches = operator.equals("Exists") ? key.isEmpty() || key.equals(UNREACHABLE_TAINT)
          : key.equals(UNREACHABLE_TAINT) && t.path("value").asText("").isEmpty();
      if (keyMatches && (effect.isEmpty() || effect.equals("NoExecute"))) {
        return t.hasNonNull("tolerationSeconds") ? OptionalLong.of(Math.max(0, t.get("tolerationSeconds").asLong()))
            : OptionalLong.empty();
      }
    }
    return OptionalLong.of(settings.podEvictionTimeout().toSeconds());
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (timer != null) {
        timer.cancel();
      }
    }
    thread.shutdown();
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's status manager for the pods the agent runs: it writes their status through
 * {@code pods/<name>/status}, remembers the status it wrote, and writes it again when the API
 * server's differs (someone else wrote the pod's status: the pod source then sends a
 * {@link PodOperation#RECONCILE}).
 *
 * <p>The agent owns a pod's whole status except the conditions of types the kubelet does not
 * own: of the conditions, only PodScheduled, PodReadyToStartContainers, Initialized,
 * ContainersReady and Ready are the agent's; any other (such as DisruptionTarget) is kept as
 * the API server has it, first, as the kubelet's {@code mergePodStatus} does.
 *
 * <p>A write the server refuses for a passing reason (429, a 5xx such as a 504 timeout, or a
 * connection error) is tried again later, after 1, 2, 4, 8 and then every 10 seconds, up to
 * {@value #MAX_RETRIES} times, each time computed afresh from the pod's latest version, as the
 * kubelet's status manager keeps syncing a status the API server does not have yet. Any other
 * refusal (the pod is invalid, forbidden) is logged and not retried.
 *
 * <p>Confined to the agent's pod worker thread: retries run on it too.
 */
final class PodStatusManager {

  private static final Logger log = LoggerFactory.getLogger(PodStatusManager.class);

  /** The condition types the kubelet owns ({@code PodConditionsByKubelet} and PodReadyToStartContainers). */
  static final Set<String> KUBELET_CONDITIONS =
      Set.of("PodScheduled", "PodReadyToStartContainers", "Initialized", "ContainersReady", "Ready");

  /** How many times a write refused for a passing reason is tried again. */
  static final int MAX_RETRIES = 10;
  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(10);

  private final ResourceClient<DynamicObject> pods;
  private final Clock clock;
  private final Executor worker;
  private final String logName;
  /** The status last written or adopted, as the API server returned it, by pod UID. */
  private final Map<String, ObjectNode> statuses = new HashMap<>();

  PodStatusManager(ResourceClient<DynamicObject> pods, Clock clock, Executor worker, String nodeName) {
    this.pods = Objects.requireNonNull(pods, "pods");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.worker = Objects.requireNonNull(worker, "worker");
    this.logName = "PodStatusManager[" + nodeName + "]";
  }

  /** The status the agent holds for pod {@code uid}. */
  Optional<ObjectNode> status(String uid) {
    return Optional.ofNullable(statuses.get(uid)).map(ObjectNode::deepCopy);
  }

  /** Takes {@code pod}'s status in the API server as the agent's (a pod found running). */
  void adopt(DynamicObject pod) {
    statuses.put(pod.uid(), PodTrees.status(pod.toTree()).deepCopy());
  }

  /**
   * Writes the status {@code next} computes from the pod's latest version, in which the status
   * is the agent's (when it holds one), retrying conflicts. Does nothing when the pod is gone or
   * is another one (another uid).
   */
  void setStatus(String namespace, String name, String uid, BiFunction<ObjectNode, Instant, ObjectNode> next) {
    write(namespace, name, uid, latest -> {
      ObjectNode tree = latest.toTree();
      ObjectNode ours = statuses.get(uid);
      if (ours != null) {
        tree.set("status", merge(ours, PodTrees.status(tree)));
      }
      return next.apply(tree, clock.now());
    });
  }

  /**
   * Writes the agent's status of {@code pod} back when the API server's (in {@code pod}, and
   * then in its latest version) differs from it. Returns whether it wrote.
   */
  boolean reconcile(DynamicObject pod) {
    ObjectNode ours = statuses.get(pod.uid());
    if (ours == null || sameByKubelet(PodTrees.status(pod.toTree()), ours)) {
      return false;
    }
    boolean[] written = new boolean[1];
    write(pod.namespace(), pod.name(), pod.uid(), latest -> {
      ObjectNode theirs = PodTrees.status(latest.toTree());
      if (sameByKubelet(theirs, ours)) {
        return null;
      }
      log.info("{}: the status of {}/{} (phase {}) is not the agent's (phase {}); writing it back", logName,
          pod.namespace(), pod.name(), theirs.path("phase").asText("none"), ours.path("phase").asText("none"));
      written[0] = true;
      return merge(ours, theirs);
    });
    return written[0];
  }

  /** Forgets pod {@code uid}. */
  void forget(String uid) {
    statuses.remove(uid);
  }

  /**
   * GETs the pod, computes its new status from it ({@code null}: nothing to write) and writes
   * it, up to five times on conflicts; remembers what the server stored.
   */
  private void write(String namespace, String name, String uid, Function<DynamicObject, ObjectNode> status) {
    write(namespace, name, uid, status, 0);
  }

  private void write(String namespace, String name, String uid, Function<DynamicObject, ObjectNode> status,
      int retries) {
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        Optional<DynamicObject> latest = pods.get(namespace, name);
        if (latest.isEmpty() || !uid.equals(latest.get().uid())) {
          return;
        }
        ObjectNode next = status.apply(latest.get());
        if (next == null) {
          return;
        }
        ObjectNode tree = latest.get().toTree();
        tree.set("status", next);
        DynamicObject stored = pods.updateStatus(DynamicObject.of(tree));
        statuses.put(uid, PodTrees.status(stored.toTree()).deepCopy());
        return;
      } catch (StatusException e) {
        int code = e.status().code();
        if (code != 409) {
          log.warn("{}: status of {}/{}: {}", logName, namespace, name, e.getMessage());
          if (code == 429 || code >= 500) {
            retryLater(namespace, name, uid, status, retries);
          }
          return;
        }
      } catch (RuntimeException e) {
        log.warn("{}: status of {}/{}: {}", logName, namespace, name, e.toString());
        retryLater(namespace, name, uid, status, retries);
        return;
      }
    }
  }

  private void retryLater(String namespace, String name, String uid, Function<DynamicObject, ObjectNode> status,
      int retries) {
    if (retries >= MAX_RETRIES) {
      log.warn("{}: status of {}/{}: giving up after {} retries", logName, namespace, name, retries);
      return;
    }
    Duration delay = Duration.ofSeconds(1L << Math.min(retries, 4));
    clock.schedule(delay.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : delay, () -> {
      try {
        worker.execute(() -> write(namespace, name, uid, status, retries + 1));
      } catch (RejectedExecutionException stopped) {
        // the agent stopped meanwhile
      }
    });
  }

  /** {@code ours} with the conditions of {@code theirs} that the kubelet does not own, those first. */
  static ObjectNode merge(ObjectNode ours, JsonNode theirs) {
    ObjectNode merged = ours.deepCopy();
    ArrayNode conditions = JsonNodeFactory.instance.arrayNode();
    for (JsonNode c : theirs.path("conditions")) {
      if (!KUBELET_CONDITIONS.contains(c.path("type").asText())) {
        conditions.add(c.deepCopy());
      }
    }
    for (JsonNode c : ours.path("conditions")) {
      if (KUBELET_CONDITIONS.contains(c.path("type").asText())) {
        conditions.add(c.deepCopy());
      }
    }
    if (conditions.isEmpty()) {
      merged.remove("conditions");
    } else {
      merged.set("conditions", conditions);
    }
    return merged;
  }

  /** Whether two statuses are the same in what the kubelet owns (conditions in any order). */
  static boolean sameByKubelet(JsonNode a, JsonNode b) {
    return kubeletView(a).equals(kubeletView(b));
  }

  private static ObjectNode kubeletView(JsonNode status) {
    ObjectNode view = status instanceof ObjectNode o ? o.deepCopy() : JsonNodeFactory.instance.objectNode();
    Map<String, JsonNode> conditions = new TreeMap<>();
    for (JsonNode c : status.path("conditions")) {
      if (KUBELET_CONDITIONS.contains(c.path("type").asText())) {
        conditions.put(c.path("type").asText(), c);
      }
    }
    ArrayNode sorted = view.putArray("conditions");
    conditions.values().forEach(sorted::add);
    return view;
  }
}

package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
 * <p>Confined to the agent's pod worker thread.
 */
final class PodStatusManager {

  private static final Logger log = LoggerFactory.getLogger(PodStatusManager.class);

  /** The condition types the kubelet owns ({@code PodConditionsByKubelet} and PodReadyToStartContainers). */
  static final Set<String> KUBELET_CONDITIONS =
      Set.of("PodScheduled", "PodReadyToStartContainers", "Initialized", "ContainersReady", "Ready");

  private final ResourceClient<DynamicObject> pods;
  private final Clock clock;
  private final String logName;
  /** The status last written or adopted, as the API server returned it, by pod UID. */
  private final Map<String, ObjectNode> statuses = new HashMap<>();

  PodStatusManager(ResourceClient<DynamicObject> pods, Clock clock, String nodeName) {
    this.pods = Objects.requireNonNull(pods, "pods");
    this.clock = Objects.requireNonNull(clock, "clock");
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
        if (e.status().code() != 409) {
          log.warn("{}: status of {}/{}: {}", logName, namespace, name, e.getMessage());
          return;
        }
      } catch (RuntimeException e) {
        log.warn("{}: status of {}/{}: {}", logName, namespace, name, e.toString());
        return;
      }
    }
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

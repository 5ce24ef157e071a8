package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's {@code PodConfig}: merges the pods of several sources (the API server, the
 * manifest directory, the manifest URL) into one stream of incremental updates.
 *
 * <h2>Merging</h2>
 * Each source, registered with {@link #channel}, sends {@link PodUpdate}s. The config keeps one
 * pod set per source, keyed by UID, so a source's {@link PodOperation#SET} replaces only that
 * source's pods. Every pod taken in gets the annotation {@link PodSources#CONFIG_SOURCE}, and
 * a new one {@link PodSources#CONFIG_SEEN} (the clock's now). For a pod already known,
 * <ul>
 *   <li>a changed spec, labels, annotations (other than the agent's own: source, seen,
 *       mirror), {@code deletionTimestamp} or {@code deletionGracePeriodSeconds} is an
 *       {@link PodOperation#UPDATE}, or a {@link PodOperation#DELETE} when
 *       {@code deletionTimestamp} is set;
 *   <li>otherwise a changed status alone is a {@link PodOperation#RECONCILE};
 *   <li>otherwise nothing.
 * </ul>
 * A pod missing from a source's SET, or named by its REMOVE, is a {@link PodOperation#REMOVE}.
 * Pods of one update with the same {@code namespace/name} as an earlier one are dropped (the
 * kubelet's duplicate check).
 *
 * <h2>Notification</h2>
 * After each source update, the downstream consumer receives, in this order and only when not
 * empty: REMOVE, ADD, UPDATE, DELETE, then RECONCILE (the kubelet's incremental mode). The
 * first SET of a source that yields no ADD, UPDATE or DELETE still sends an empty ADD, so the
 * consumer learns the source is ready. Pods handed on are copies: the consumer may keep them.
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Updates of all sources are merged one at a time under one lock, and the
 * downstream consumer is called under that lock: it sees updates in merge order and must be
 * quick (hand them to a queue).
 */
public final class PodConfig {

  private static final Logger log = LoggerFactory.getLogger(PodConfig.class);

  /** The agent's own annotations, not compared between versions of a pod. */
  private static final Set<String> LOCAL_ANNOTATIONS =
      Set.of(PodSources.CONFIG_SOURCE, PodSources.CONFIG_MIRROR, PodSources.CONFIG_SEEN);

  private final Consumer<PodUpdate> downstream;
  private final Clock clock;

  /** Guards every field below; the downstream consumer is called while it is held. */
  private final ReentrantLock lock = new ReentrantLock();
  /** Each source's pods by UID (the stored trees are copies no one else sees). */
  @GuardedBy("lock")
  private final Map<String, Map<String, ObjectNode>> pods = new HashMap<>();
  /** Sources registered with {@link #channel}. */
  @GuardedBy("lock")
  private final Set<String> sources = new LinkedHashSet<>();
  /** Sources that have sent a SET. */
  @GuardedBy("lock")
  private final Set<String> sourcesSeen = new HashSet<>();
  /**
   * The resourceVersion of the API server's pods as last merged, by uid. The API server source
   * hands over every pod of the node on each change (an UndeltaStore's SET); a pod whose
   * resourceVersion has not moved since it was merged cannot differ, so it is not parsed and
   * compared again.
   */
  @GuardedBy("lock")
  private final Map<String, String> apiVersions = new HashMap<>();

  /**
   * @param downstream receives the merged updates (under the config's lock)
   * @param clock stamps {@link PodSources#CONFIG_SEEN}
   */
  public PodConfig(Consumer<PodUpdate> downstream, Clock clock) {
    this.downstream = Objects.requireNonNull(downstream, "downstream");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Registers {@code source} and returns where it sends its updates. The update's own
   * {@code source} field is ignored: the channel's source counts.
   */
  public Consumer<PodUpdate> channel(String source) {
    Objects.requireNonNull(source, "source");
    lock.lock();
    try {
      sources.add(source);
    } finally {
      lock.unlock();
    }
    return update -> merge(source, update);
  }

  /** Whether every source registered so far has sent a SET (the kubelet's SeenAllSources). */
  public boolean seenAllSources() {
    lock.lock();
    try {
      return sourcesSeen.containsAll(sources);
    } finally {
      lock.unlock();
    }
  }

  /** Whether each of {@code names} has sent a SET. */
  public boolean seenSources(String... names) {
    lock.lock();
    try {
      return sourcesSeen.containsAll(List.of(names));
    } finally {
      lock.unlock();
    }
  }

  /** Merges one update from {@code source} and notifies downstream. */
  void merge(String source, PodUpdate update) {
    lock.lock();
    try {
      boolean seenBefore = sourcesSeen.contains(source);
      Diff diff = apply(source, update);
      boolean firstSet = !seenBefore && sourcesSeen.contains(source);
      send(source, PodOperation.REMOVE, diff.removes);
      send(source, PodOperation.ADD, diff.adds);
      send(source, PodOperation.UPDATE, diff.updates);
      send(source, PodOperation.DELETE, diff.deletes);
      if (firstSet && diff.adds.isEmpty() && diff.updates.isEmpty() && diff.deletes.isEmpty()) {
        downstream.accept(new PodUpdate(List.of(), PodOperation.ADD, source));
      }
      send(source, PodOperation.RECONCILE, diff.reconciles);
    } finally {
      lock.unlock();
    }
  }

  private void send(String source, PodOperation op, List<ObjectNode> trees) {
    if (!trees.isEmpty()) {
      downstream.accept(new PodUpdate(trees.stream().map(DynamicObject::of).toList(), op, source));
    }
  }

  /** The five lists of one merge (the kubelet's podStorage.merge results). */
  private static final class Diff {
    final List<ObjectNode> adds = new ArrayList<>();
    final List<ObjectNode> updates = new ArrayList<>();
    final List<ObjectNode> deletes = new ArrayList<>();
    final List<ObjectNode> removes = new ArrayList<>();
    final List<ObjectNode> reconciles = new ArrayList<>();
  }

  @GuardedBy("lock")
  private Diff apply(String source, PodUpdate update) {
    Diff diff = new Diff();
    Map<String, ObjectNode> current = pods.getOrDefault(source, new LinkedHashMap<>());
    switch (update.op()) {
      case ADD, UPDATE, DELETE -> takeIn(source, update.pods(), current, current, diff);
      case REMOVE -> {
        for (DynamicObject pod : update.pods()) {
          ObjectNode existing = current.remove(uid(pod));
          if (existing != null) {
            diff.removes.add(existing);
          }
        }
      }
      case SET -> {
        sourcesSeen.add(source);
        Map<String, ObjectNode> old = current;
        current = new LinkedHashMap<>();
        takeIn(source, update.pods(), old, current, diff);
        for (Map.Entry<String, ObjectNode> e : old.entrySet()) {
          if (!current.containsKey(e.getKey())) {
            diff.removes.add(e.getValue());
          }
        }
      }
      case RECONCILE -> log.warn("PodConfig: source {} sent RECONCILE, which only goes downstream; ignored",
          source);
    }
    pods.put(source, current);
    if (PodSources.API.equals(source)) {
      apiVersions.keySet().retainAll(current.keySet());
    }
    return diff;
  }

  /** The kubelet's updatePodsFunc: merges {@code incoming} against {@code old} into {@code into}. */
  @GuardedBy("lock")
  private void takeIn(String source, List<DynamicObject> incoming, Map<String, ObjectNode> old,
      Map<String, ObjectNode> into, Diff diff) {
    Set<String> names = new HashSet<>();
    for (DynamicObject pod : incoming) {
      String fullName = pod.namespace() + "/" + pod.name();
      if (!names.add(fullName)) {
        log.warn("PodConfig: source {} sent pod {} twice in one update; the later one is dropped",
            source, fullName);
        continue;
      }
      String uid = uid(pod);
      ObjectNode existing = old.get(uid);
      boolean fromApi = PodSources.API.equals(source) && !pod.resourceVersion().isEmpty();
      if (existing != null && fromApi && pod.resourceVersion().equals(apiVersions.get(uid))) {
        into.put(uid, existing); // the same version as merged last time: nothing changed
        continue;
      }
      if (fromApi) {
        apiVersions.put(uid, pod.resourceVersion());
      }
      ObjectNode ref = pod.toTree();
      PodTrees.annotations(ref).put(PodSources.CONFIG_SOURCE, source);
      if (existing != null) {
        into.put(uid, existing);
        switch (checkAndUpdate(existing, ref)) {
          case UPDATE -> diff.updates.add(existing.deepCopy());
          case RECONCILE -> diff.reconciles.add(existing.deepCopy());
          case DELETE -> diff.deletes.add(existing.deepCopy());
          default -> { }
        }
        continue;
      }
      PodTrees.annotations(ref).put(PodSources.CONFIG_SEEN,
          DateTimeFormatter.ISO_INSTANT.format(clock.now()));
      into.put(uid, ref);
      diff.adds.add(ref.deepCopy());
    }
  }

  /**
   * The kubelet's checkAndUpdatePod: folds {@code ref} into {@code existing} and says what that
   * was: UPDATE, DELETE, RECONCILE, or SET for "nothing".
   */
  static PodOperation checkAndUpdate(ObjectNode existing, ObjectNode ref) {
    if (!differSemantically(existing, ref)) {
      JsonNode oldStatus = existing.get("status");
      JsonNode newStatus = ref.get("status");
      if (!Objects.equals(oldStatus, newStatus)) {
        setOrRemove(existing, "status", newStatus);
        return PodOperation.RECONCILE;
      }
      return PodOperation.SET;
    }
    setOrRemove(existing, "spec", ref.get("spec"));
    setOrRemove(existing, "status", ref.get("status"));
    ObjectNode meta = PodTrees.metadata(existing);
    ObjectNode refMeta = PodTrees.metadata(ref);
    for (String field : List.of("labels", "deletionTimestamp", "deletionGracePeriodSeconds", "generation")) {
      setOrRemove(meta, field, refMeta.get(field));
    }
    ObjectNode annotations = PodTrees.annotations(ref).deepCopy();
    ObjectNode local = PodTrees.annotations(existing);
    for (String key : LOCAL_ANNOTATIONS) {
      if (local.has(key)) {
        annotations.set(key, local.get(key));
      } else {
        annotations.remove(key);
      }
    }
    meta.set("annotations", annotations);
    return refMeta.hasNonNull("deletionTimestamp") ? PodOperation.DELETE : PodOperation.UPDATE;
  }

  /** The kubelet's podsDifferSemantically. */
  static boolean differSemantically(ObjectNode existing, ObjectNode ref) {
    ObjectNode a = PodTrees.metadata(existing);
    ObjectNode b = PodTrees.metadata(ref);
    return !Objects.equals(existing.get("spec"), ref.get("spec"))
        || !Objects.equals(nonEmpty(a.get("labels")), nonEmpty(b.get("labels")))
        || !Objects.equals(a.get("deletionTimestamp"), b.get("deletionTimestamp"))
        || !Objects.equals(a.get("deletionGracePeriodSeconds"), b.get("deletionGracePeriodSeconds"))
        || !withoutLocal(a.get("annotations")).equals(withoutLocal(b.get("annotations")));
  }

  private static JsonNode nonEmpty(JsonNode map) {
    return map == null || map.isNull() || map.isEmpty() ? null : map;
  }

  private static Map<String, String> withoutLocal(JsonNode annotations) {
    Map<String, String> m = new HashMap<>();
    if (annotations != null) {
      annotations.properties().forEach(e -> {
        if (!LOCAL_ANNOTATIONS.contains(e.getKey())) {
          m.put(e.getKey(), e.getValue().asText());
        }
      });
    }
    return m;
  }

  private static void setOrRemove(ObjectNode node, String field, JsonNode value) {
    if (value == null) {
      node.remove(field);
    } else {
      node.set(field, value.deepCopy());
    }
  }

  private static String uid(DynamicObject pod) {
    String uid = pod.uid();
    return uid == null || uid.isEmpty() ? pod.namespace() + "/" + pod.name() : uid;
  }
}

package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a mirror pod in the API server for each static pod, as the kubelet's mirror client
 * does: a copy of the static pod (same name and namespace, no uid) with the annotation
 * {@link PodSources#CONFIG_MIRROR} = the static pod's hash, owned by the Node.
 *
 * <ul>
 *   <li>a static pod added: its mirror pod is created;
 *   <li>a mirror pod deleted (marked or gone) while its static pod exists: deleted for good and
 *       created again; one whose hash is not its static pod's (an edited manifest): replaced;
 *   <li>a static pod removed: its mirror pod is deleted ({@code gracePeriodSeconds: 0});
 *   <li>a mirror pod without a static pod, once every source has been seen (before, its static
 *       pod may still come): deleted.
 * </ul>
 *
 * <p>Confined to the agent's pod worker thread.
 */
final class MirrorPods {

  private static final Logger log = LoggerFactory.getLogger(MirrorPods.class);

  private final ResourceClient<DynamicObject> pods;
  private final String nodeName;
  private final Supplier<String> nodeUid;
  /** Static pods by {@code namespace/name}. */
  private final Map<String, DynamicObject> statics = new HashMap<>();
  /** Mirror pods in the API server, by {@code namespace/name}, as last seen. */
  private final Map<String, DynamicObject> mirrors = new HashMap<>();

  MirrorPods(ResourceClient<DynamicObject> pods, String nodeName, Supplier<String> nodeUid) {
    this.pods = Objects.requireNonNull(pods, "pods");
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.nodeUid = Objects.requireNonNull(nodeUid, "nodeUid");
  }

  /** Whether {@code pod} (from the API server) is a mirror pod. */
  static boolean isMirror(DynamicObject pod) {
    return pod.annotations().containsKey(PodSources.CONFIG_MIRROR);
  }

  /** A static pod added or updated. */
  void staticPod(DynamicObject pod) {
    String key = key(pod);
    statics.put(key, pod);
    DynamicObject mirror = mirrors.get(key);
    if (mirror == null) {
      create(pod);
    } else if (!hash(pod).equals(mirror.annotations().get(PodSources.CONFIG_MIRROR))) {
      delete(mirror);
      create(pod);
    }
  }

  /** A static pod removed. */
  void staticPodRemoved(DynamicObject pod) {
    String key = key(pod);
    statics.remove(key);
    DynamicObject mirror = mirrors.remove(key);
    if (mirror != null) {
      delete(mirror);
    } else {
      try {
        pods.delete(pod.namespace(), pod.name(), new DeleteOptions(0L, "", "", ""));
      } catch (RuntimeException e) {
        log.warn("MirrorPods[{}]: deleting mirror pod {}: {}", nodeName, key, e.toString());
      }
    }
  }

  /** A mirror pod seen in the API server (added or changed). */
  void mirrorSeen(DynamicObject mirror) {
    String key = key(mirror);
    mirrors.put(key, mirror);
    DynamicObject pod = statics.get(key);
    if (pod != null && !hash(pod).equals(mirror.annotations().get(PodSources.CONFIG_MIRROR))) {
      delete(mirror);
      create(pod);
    }
  }

  /** A mirror pod marked for deletion: deleted for good now (the REMOVE that follows recreates it). */
  void mirrorDeleting(DynamicObject mirror) {
    mirrors.put(key(mirror), mirror);
    delete(mirror);
  }

  /** A mirror pod gone from the API server: created again if its static pod exists. */
  void mirrorGone(DynamicObject mirror) {
    String key = key(mirror);
    DynamicObject seen = mirrors.get(key);
    if (seen != null && seen.uid().equals(mirror.uid())) {
      mirrors.remove(key);
    }
    DynamicObject pod = statics.get(key);
    if (pod != null && !mirrors.containsKey(key)) {
      create(pod);
    }
  }

  /** Deletes mirror pods whose static pod does not exist; call once every source has been seen. */
  void removeOrphans() {
    for (Map.Entry<String, DynamicObject> e : new ArrayList<>(mirrors.entrySet())) {
      if (!statics.containsKey(e.getKey())) {
        mirrors.remove(e.getKey());
        delete(e.getValue());
      }
    }
  }

  private void create(DynamicObject pod) {
    ObjectNode tree = pod.toTree();
    ObjectNode meta = PodTrees.metadata(tree);
    meta.remove(List.of("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"));
    PodTrees.annotations(tree).put(PodSources.CONFIG_MIRROR, hash(pod));
    String uid = nodeUid.get();
    if (!uid.isEmpty()) {
      meta.putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Node")
          .put("name", nodeName).put("uid", uid).put("controller", true);
    }
    tree.remove("status");
    try {
      pods.create(DynamicObject.of(tree));
    } catch (StatusException e) {
      if (e.status().code() == 409) {
        log.debug("MirrorPods[{}]: mirror pod {} exists already", nodeName, key(pod));
      } else {
        log.warn("MirrorPods[{}]: creating mirror pod {}: {}", nodeName, key(pod), e.getMessage());
      }
    } catch (RuntimeException e) {
      log.warn("MirrorPods[{}]: creating mirror pod {}: {}", nodeName, key(pod), e.toString());
    }
  }

  private void delete(DynamicObject mirror) {
    try {
      pods.delete(mirror.namespace(), mirror.name(), DeleteOptions.immediate(mirror.uid()));
    } catch (RuntimeException e) {
      log.debug("MirrorPods[{}]: deleting mirror pod {}: {}", nodeName, key(mirror), e.toString());
    }
  }

  private static String hash(DynamicObject pod) {
    return pod.annotations().getOrDefault(PodSources.CONFIG_HASH, pod.uid());
  }

  private static String key(DynamicObject pod) {
    return pod.namespace() + "/" + pod.name();
  }
}

package io.listwatch.controllers.scheduler;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.client.DynamicObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The nodes and the pods bound to them, as the informers report them, plus the pods the
 * scheduler has <em>assumed</em> onto a node while their binding is in flight (kube's
 * scheduler cache), so that the next pod does not take room the last one was given.
 *
 * <p>An assumed pod is replaced by the informer's copy once the bound pod arrives, and
 * dropped by {@link #forget} when its binding fails. Pods bound to a node the cache does not
 * know yet are kept and counted once the node arrives.
 *
 * <p>Thread-safe: every method takes {@link #lock}; {@link #snapshot} hands out immutable
 * {@link NodeInfo}s, rebuilt only for nodes that changed since the last snapshot.
 */
final class SchedulerCache {

  private final ReentrantLock lock = new ReentrantLock();
  /** Nodes by name, parsed once, without their pods. */
  @GuardedBy("lock")
  private final Map<String, NodeInfo> nodes = new TreeMap<>();
  /** Bound or assumed pods by node name, then by {@code namespace/name}. */
  @GuardedBy("lock")
  private final Map<String, Map<String, PodInfo>> podsByNode = new HashMap<>();
  /** The node of every pod in {@link #podsByNode}, by {@code namespace/name}. */
  @GuardedBy("lock")
  private final Map<String, String> nodeOfPod = new HashMap<>();
  /** Keys of pods assumed and not yet seen bound. */
  @GuardedBy("lock")
  private final Set<String> assumed = new HashSet<>();
  /** The last NodeInfo of each node; removed when the node or its pods change. */
  @GuardedBy("lock")
  private final Map<String, NodeInfo> infos = new HashMap<>();

  void putNode(DynamicObject node) {
    lock.lock();
    try {
      nodes.put(node.name(), NodeInfo.of(node, Map.of()));
      infos.remove(node.name());
    } finally {
      lock.unlock();
    }
  }

  void removeNode(String name) {
    lock.lock();
    try {
      nodes.remove(name);
      infos.remove(name);
    } finally {
      lock.unlock();
    }
  }

  /** Records a pod the informer reports bound to {@code pod.nodeName()} (replacing an assumed copy). */
  void putPod(PodInfo pod) {
    lock.lock();
    try {
      assumed.remove(pod.key());
      place(pod, pod.nodeName());
    } finally {
      lock.unlock();
    }
  }

  /** Removes a pod that was deleted or finished. */
  void removePod(String key) {
    lock.lock();
    try {
      assumed.remove(key);
      unplace(key);
    } finally {
      lock.unlock();
    }
  }

  /** Counts {@code pod} on {@code node} until the informer reports it bound or {@link #forget} is called. */
  void assume(PodInfo pod, String node) {
    lock.lock();
    try {
      assumed.add(pod.key());
      place(pod, node);
    } finally {
      lock.unlock();
    }
  }

  /** Drops an assumed pod whose binding failed; a pod the informer already reported bound stays. */
  void forget(String key) {
    lock.lock();
    try {
      if (assumed.remove(key)) {
        unplace(key);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the pod is bound (as the informer reports) or assumed onto a node. */
  boolean hasPod(String key) {
    lock.lock();
    try {
      return nodeOfPod.containsKey(key);
    } finally {
      lock.unlock();
    }
  }

  /** Every known node with its pods, sorted by name. */
  List<NodeInfo> snapshot() {
    lock.lock();
    try {
      List<NodeInfo> list = new ArrayList<>(nodes.size());
      for (NodeInfo node : nodes.values()) {
        list.add(infos.computeIfAbsent(node.name(),
            name -> node.withPods(podsByNode.getOrDefault(name, Map.of()))));
      }
      return list;
    } finally {
      lock.unlock();
    }
  }

  @GuardedBy("lock")
  private void place(PodInfo pod, String node) {
    unplace(pod.key());
    podsByNode.computeIfAbsent(node, n -> new HashMap<>()).put(pod.key(), pod);
    nodeOfPod.put(pod.key(), node);
    infos.remove(node);
  }

  @GuardedBy("lock")
  private void unplace(String key) {
    String node = nodeOfPod.remove(key);
    if (node == null) {
      return;
    }
    Map<String, PodInfo> pods = podsByNode.get(node);
    pods.remove(key);
    if (pods.isEmpty()) {
      podsByNode.remove(node);
    }
    infos.remove(node);
  }
}

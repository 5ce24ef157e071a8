package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.KubeTime;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The node's heartbeat, as the kubelet's node lease controller keeps it: the Lease
 * {@code kube-node-lease/<node>} with {@code holderIdentity} the node,
 * {@code leaseDurationSeconds} (kube: 40) and {@code renewTime}, owned by the Node (so it goes
 * with it). {@link #renew} creates it when missing and otherwise moves {@code renewTime} to now.
 *
 * <p>Confined to the agent's heartbeat thread (not thread-safe).
 */
final class NodeLease {

  /** The namespace of the nodes' Leases. */
  static final String NAMESPACE = "kube-node-lease";

  private final ResourceClient<DynamicObject> leases;
  private final String nodeName;
  private final Duration leaseDuration;
  private final Clock clock;
  private final Supplier<String> nodeUid;
  /** The Lease as last written, or null. */
  private DynamicObject last;

  NodeLease(ResourceClient<DynamicObject> leases, String nodeName, Duration leaseDuration, Clock clock,
      Supplier<String> nodeUid) {
    this.leases = Objects.requireNonNull(leases, "leases");
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.nodeUid = Objects.requireNonNull(nodeUid, "nodeUid");
  }

  /** Creates or renews the Lease; a conflict or a vanished Lease is retried once from the server's copy. */
  void renew() {
    for (int attempt = 0; ; attempt++) {
      try {
        DynamicObject current = last != null ? last : leases.get(NAMESPACE, nodeName).orElse(null);
        last = current == null ? leases.create(DynamicObject.of(newLease())) : leases.update(renewed(current));
        return;
      } catch (StatusException e) {
        last = null;
        int code = e.status().code();
        if ((code != 409 && code != 404) || attempt >= 1) {
          throw e;
        }
      }
    }
  }

  private DynamicObject renewed(DynamicObject lease) {
    ObjectNode tree = lease.toTree();
    ObjectNode spec = PodTrees.spec(tree);
    spec.put("holderIdentity", nodeName).put("leaseDurationSeconds", leaseDuration.toSeconds())
        .put("renewTime", KubeTime.microTime(clock.now()));
    return DynamicObject.of(tree);
  }

  private ObjectNode newLease() {
    ObjectNode lease = JsonNodeFactory.instance.objectNode().put("apiVersion", "coordination.k8s.io/v1")
        .put("kind", "Lease");
    ObjectNode meta = lease.putObject("metadata").put("name", nodeName).put("namespace", NAMESPACE);
    String uid = nodeUid.get();
    if (!uid.isEmpty()) {
      meta.putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Node")
          .put("name", nodeName).put("uid", uid);
    }
    lease.putObject("spec").put("holderIdentity", nodeName).put("leaseDurationSeconds", leaseDuration.toSeconds())
        .put("renewTime", KubeTime.microTime(clock.now()));
    return lease;
  }
}

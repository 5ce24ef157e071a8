package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.KubeTime;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.time.Instant;
import java.util.Objects;

/**
 * Registers the agent's Node and keeps its status, as the kubelet's
 * {@code registerWithAPIServer} and node status setters do: labels
 * {@code kubernetes.io/hostname}, {@code kubernetes.io/os} and {@code kubernetes.io/arch},
 * {@code spec.podCIDR(s)}, capacity and allocatable (cpu, memory, pods), the addresses
 * InternalIP and Hostname, node info, and the conditions MemoryPressure, DiskPressure and
 * PIDPressure (False) and Ready (True, reason KubeletReady) with {@code lastHeartbeatTime}.
 *
 * <p>Confined to the agent's heartbeat thread (not thread-safe); {@link #nodeUid} may be read
 * from any thread.
 */
final class NodeStatusManager {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final ResourceClient<DynamicObject> nodes;
  private final NodeAgentConfig config;
  private final Clock clock;
  private volatile String nodeUid = "";

  NodeStatusManager(ResourceClient<DynamicObject> nodes, NodeAgentConfig config, Clock clock) {
    this.nodes = Objects.requireNonNull(nodes, "nodes");
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The Node's uid once registered, "" before. */
  String nodeUid() {
    return nodeUid;
  }

  /**
   * Creates the Node if it does not exist (an existing one is taken over, as a restarted
   * kubelet does), then writes its status.
   */
  void register() {
    DynamicObject node = nodes.get("", config.nodeName()).orElse(null);
    if (node == null) {
      try {
        node = nodes.create(DynamicObject.of(newNode()));
      } catch (StatusException e) {
        if (e.status().code() != 409) {
          throw e;
        }
        node = nodes.get("", config.nodeName()).orElseThrow(() -> e);
      }
    }
    nodeUid = node.uid();
    updateStatus();
  }

  /** Writes the status now (Ready, heartbeat time), retrying conflicts with the latest Node. */
  void updateStatus() {
    for (int attempt = 0; ; attempt++) {
      DynamicObject node = nodes.get("", config.nodeName()).orElse(null);
      if (node == null) {
        register();
        return;
      }
      nodeUid = node.uid();
      ObjectNode tree = node.toTree();
      tree.set("status", status(PodTrees.status(tree), clock.now()));
      try {
        nodes.updateStatus(DynamicObject.of(tree));
        return;
      } catch (StatusException e) {
        if (e.status().code() != 409 || attempt >= 4) {
          throw e;
        }
      }
    }
  }

  private ObjectNode newNode() {
    ObjectNode node = JSON.objectNode().put("apiVersion", "v1").put("kind", "Node");
    ObjectNode meta = node.putObject("metadata").put("name", config.nodeName());
    meta.putObject("labels").put("kubernetes.io/hostname", config.nodeName())
        .put("kubernetes.io/os", "linux").put("kubernetes.io/arch", "amd64");
    ObjectNode spec = node.putObject("spec");
    if (!config.podCidr().isEmpty()) {
      spec.put("podCIDR", config.podCidr());
      spec.putArray("podCIDRs").add(config.podCidr());
    }
    node.set("status", status(JSON.objectNode(), clock.now()));
    return node;
  }

  /** The status to write, keeping the transition times of conditions that stay as they were. */
  ObjectNode status(ObjectNode old, Instant now) {
    ObjectNode status = JSON.objectNode();
    ObjectNode capacity = status.putObject("capacity").put("cpu", config.cpu()).put("memory", config.memory())
        .put("pods", String.valueOf(config.maxPods()));
    status.set("allocatable", capacity.deepCopy());
    ArrayNode conditions = status.putArray("conditions");
    condition(conditions, old, "MemoryPressure", "False", "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available", now);
    condition(conditions, old, "DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", now);
    condition(conditions, old, "PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available",
        now);
    condition(conditions, old, "Ready", "True", "KubeletReady", "kubelet is posting ready status", now);
    ArrayNode addresses = status.putArray("addresses");
    addresses.addObject().put("type", "InternalIP").put("address", config.nodeIp());
    addresses.addObject().put("type", "Hostname").put("address", config.nodeName());
    status.putObject("daemonEndpoints").putObject("kubeletEndpoint").put("Port", 10250);
    status.putObject("nodeInfo").put("machineID", "").put("systemUUID", "").put("bootID", "")
        .put("kernelVersion", "").put("osImage", "listwatch simulated node")
        .put("containerRuntimeVersion", "listwatch://simulated").put("kubeletVersion", "v1.32.0-listwatch")
        .put("kubeProxyVersion", "").put("operatingSystem", "linux").put("architecture", "amd64");
    return status;
  }

  private static void condition(ArrayNode conditions, ObjectNode old, String type, String value, String reason,
      String message, Instant now) {
    String transition = KubeTime.time(now);
    for (var c : old.path("conditions")) {
      if (c.path("type").asText().equals(type) && c.path("status").asText().equals(value)
          && c.hasNonNull("lastTransitionTime")) {
        transition = c.get("lastTransitionTime").asText();
      }
    }
    conditions.addObject().put("type", type).put("status", value).put("lastHeartbeatTime", KubeTime.time(now))
        .put("lastTransitionTime", transition).put("reason", reason).put("message", message);
  }
}

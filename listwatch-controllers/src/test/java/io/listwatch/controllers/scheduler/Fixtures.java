package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import java.util.Map;

/** Test fixtures: nodes and pods as JSON trees, and their scheduler views. */
final class Fixtures {

  static final ObjectMapper JSON = new ObjectMapper();

  private Fixtures() {
  }

  /** A Ready node with allocatable {@code cpu}, {@code memory} and {@code pods}. */
  static ObjectNode node(String name, String cpu, String memory, int pods) {
    ObjectNode n = tree("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"spec\":{},\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
    ObjectNode alloc = ((ObjectNode) n.get("status")).putObject("allocatable");
    alloc.put("cpu", cpu).put("memory", memory).put("pods", Integer.toString(pods));
    ((ObjectNode) n.get("status")).set("capacity", alloc.deepCopy());
    return n;
  }

  static ObjectNode node(String name) {
    return node(name, "4", "8Gi", 110);
  }

  /**
   * {@code stored}, a Node as its create stored it, without the {@code node.kubernetes.io/not-ready}
   * taint the TaintNodesByCondition admission gives every new Node: as it is once the node
   * lifecycle controller has seen the node Ready (write it back to stand for that).
   */
  static ObjectNode withoutNotReadyTaint(ObjectNode stored) {
    ObjectNode node = stored.deepCopy();
    com.fasterxml.jackson.databind.node.ArrayNode kept = node.arrayNode();
    node.path("spec").path("taints").forEach(t -> {
      if (!t.path("key").asText().equals("node.kubernetes.io/not-ready")) {
        kept.add(t);
      }
    });
    if (kept.isEmpty()) {
      ((ObjectNode) node.get("spec")).remove("taints");
    } else {
      ((ObjectNode) node.get("spec")).set("taints", kept);
    }
    return node;
  }

  static ObjectNode labels(ObjectNode object, Map<String, String> labels) {
    ObjectNode l = ((ObjectNode) object.get("metadata")).putObject("labels");
    labels.forEach(l::put);
    return object;
  }

  static ObjectNode taints(ObjectNode node, String taintsJson) {
    ((ObjectNode) node.get("spec")).set("taints", tree(taintsJson));
    return node;
  }

  /** A pod in {@code default} with one container requesting {@code cpu} and {@code memory} (null: none). */
  static ObjectNode pod(String name, String cpu, String memory) {
    ObjectNode p = tree("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}");
    ObjectNode requests = ((ObjectNode) p.at("/spec/containers/0")).putObject("resources").putObject("requests");
    if (cpu != null) {
      requests.put("cpu", cpu);
    }
    if (memory != null) {
      requests.put("memory", memory);
    }
    return p;
  }

  static ObjectNode pod(String name) {
    return pod(name, null, null);
  }

  /** Sets {@code spec.<field>} to the JSON value. */
  static ObjectNode spec(ObjectNode object, String field, String json) {
    ((ObjectNode) object.get("spec")).set(field, tree(json));
    return object;
  }

  static ObjectNode ownedBy(ObjectNode pod, String uid) {
    ((ObjectNode) pod.get("metadata")).set("ownerReferences", tree("[{\"apiVersion\":\"apps/v1\","
        + "\"kind\":\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"" + uid + "\",\"controller\":true}]"));
    return pod;
  }

  /** Moves {@code object} to {@code namespace}. */
  static ObjectNode namespace(ObjectNode object, String namespace) {
    ((ObjectNode) object.get("metadata")).put("namespace", namespace);
    return object;
  }

  /** A pod in {@code default} with the labels, e.g. {@code labelled("web-1", "app", "web")}. */
  static ObjectNode labelled(String name, String... keyValues) {
    Map<String, String> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return labels(pod(name), map);
  }

  static PodInfo podInfo(ObjectNode pod) {
    return PodInfo.of(DynamicObject.of(pod));
  }

  static NodeInfo nodeInfo(ObjectNode node, PodInfo... pods) {
    Map<String, PodInfo> map = new java.util.HashMap<>();
    for (PodInfo p : pods) {
      map.put(p.key(), p);
    }
    return NodeInfo.of(DynamicObject.of(node), map);
  }

  static <T extends JsonNode> T tree(String json) {
    try {
      @SuppressWarnings("unchecked")
      T t = (T) JSON.readTree(json);
      return t;
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(json, e);
    }
  }
}

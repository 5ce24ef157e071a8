package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * kube 1.32's warnings about a pod or a workload's pod template that passed validation but is
 * likely a mistake ({@code GetWarningsForPod}, {@code GetWarningsForPodTemplate}), each with
 * kube's field path and text: deprecated node labels in the node selector, node affinity and
 * topology spread keys; a topology spread constraint without a label selector; deprecated pod
 * annotations; deprecated volume plug-ins; duplicate host alias IPs and image pull secrets, and
 * empty pull secret names; fractional byte values of memory and ephemeral storage; an env var
 * that hides an earlier one of the same name; duplicate and overlapping container ports.
 * Stateless.
 */
final class PodWarnings {

  /** kube's deprecated node labels, with what to use instead. */
  private static final Map<String, String> DEPRECATED_NODE_LABELS = Map.of(
      "beta.kubernetes.io/arch", "deprecated since v1.14; use \"kubernetes.io/arch\" instead",
      "beta.kubernetes.io/os", "deprecated since v1.14; use \"kubernetes.io/os\" instead",
      "failure-domain.beta.kubernetes.io/region", "deprecated since v1.17; use \"topology.kubernetes.io/region\" instead",
      "failure-domain.beta.kubernetes.io/zone", "deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead",
      "beta.kubernetes.io/instance-type", "deprecated since v1.17; use \"node.kubernetes.io/instance-type\" instead");

  /** Deprecated pod annotations, with kube's texts. */
  private static final Map<String, String> DEPRECATED_ANNOTATIONS = Map.of(
      "scheduler.alpha.kubernetes.io/critical-pod", "non-functional in v1.16+; use the \"priorityClassName\" field instead",
      "security.alpha.kubernetes.io/sysctls", "non-functional in v1.11+; use the \"sysctls\" field instead",
      "security.alpha.kubernetes.io/unsafe-sysctls", "non-functional in v1.11+; use the \"sysctls\" field instead");

  /** Deprecated or removed volume plug-ins, with kube's texts. */
  private static final Map<String, String> DEPRECATED_VOLUMES = Map.of(
      "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+",
      "gitRepo", "deprecated in v1.11",
      "scaleIO", "deprecated in v1.16, non-functional in v1.22+",
      "flocker", "deprecated in v1.22, non-functional in v1.25+",
      "storageos", "deprecated in v1.22, non-functional in v1.25+",
      "quobyte", "deprecated in v1.22, non-functional in v1.25+",
      "glusterfs", "deprecated in v1.25, non-functional in v1.26+",
      "cephfs", "deprecated in v1.28, non-functional in v1.31+",
      "rbd", "deprecated in v1.28, non-functional in v1.31+");

  private PodWarnings() {
  }

  /**
   * The warnings of a pod ({@code prefix} "") or of a pod template ({@code prefix} its path with
   * a trailing dot, {@code spec.template.}); {@code podOrTemplate} holds {@code metadata} and
   * {@code spec}.
   */
  static void of(JsonNode podOrTemplate, String prefix, Consumer<String> warn) {
    JsonNode spec = podOrTemplate.path("spec");
    String at = prefix + "spec.";
    spec.path("nodeSelector").fieldNames().forEachRemaining(k -> {
      String msg = DEPRECATED_NODE_LABELS.get(k);
      if (msg != null) {
        warn.accept(at + "nodeSelector[" + k + "]: " + msg);
      }
    });
    nodeAffinity(spec.path("affinity").path("nodeAffinity"), at + "affinity.nodeAffinity.", warn);
    JsonNode spread = spec.path("topologySpreadConstraints");
    for (int i = 0; i < spread.size(); i++) {
      String key = spread.get(i).path("topologyKey").asText("");
      String c = at + "topologySpreadConstraints[" + i + "]";
      if (DEPRECATED_NODE_LABELS.containsKey(key)) {
        warn.accept(c + ".topologyKey: " + key + " is " + DEPRECATED_NODE_LABELS.get(key));
      }
      if (!NumericFields.given(spread.get(i).get("labelSelector"))) {
        warn.accept(c + ".labelSelector: a null labelSelector results in matching no pod");
      }
    }
    JsonNode annotations = podOrTemplate.path("metadata").path("annotations");
    DEPRECATED_ANNOTATIONS.forEach((key, msg) -> {
      if (annotations.has(key)) {
        warn.accept(prefix + "metadata.annotations[" + key + "]: " + msg);
      }
    });
    JsonNode volumes = spec.path("volumes");
    for (int i = 0; i < volumes.size(); i++) {
      for (Map.Entry<String, String> d : DEPRECATED_VOLUMES.entrySet()) {
        if (NumericFields.given(volumes.get(i).get(d.getKey()))) {
          warn.accept(at + "volumes[" + i + "]." + d.getKey() + ": " + d.getValue());
        }
      }
    }
    duplicates(spec.path("hostAliases"), "ip", at + "hostAliases", "duplicate ip", warn);
    duplicates(spec.path("imagePullSecrets"), "name", at + "imagePullSecrets", "duplicate name", warn);
    JsonNode secrets = spec.path("imagePullSecrets");
    for (int i = 0; i < secrets.size(); i++) {
      if (secrets.get(i).path("name").asText("").isEmpty()) {
        warn.accept(at + "imagePullSecrets[" + i + "].name: invalid empty name \"\"");
      }
    }
    fractionalBytes(spec.path("overhead"), at + "overhead", warn);
    Map<String, String> ports = new HashMap<>();
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      JsonNode containers = spec.path(list);
      for (int i = 0; i < containers.size(); i++) {
        String c = at + list + "[" + i + "]";
        JsonNode container = containers.get(i);
        fractionalBytes(container.path("resources").path("limits"), c + ".resources.limits", warn);
        fractionalBytes(container.path("resources").path("requests"), c + ".resources.requests", warn);
        hiddenEnv(container.path("env"), c + ".env", warn);
        ports(container.path("ports"), c + ".ports", ports, warn);
      }
    }
  }

  private static void nodeAffinity(JsonNode affinity, String at, Consumer<String> warn) {
    JsonNode required = affinity.path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms");
    for (int i = 0; i < required.size(); i++) {
      nodeSelectorTerm(required.get(i),
          at + "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[" + i + "]", warn);
    }
    JsonNode preferred = affinity.path("preferredDuringSchedulingIgnoredDuringExecution");
    for (int i = 0; i < preferred.size(); i++) {
      nodeSelectorTerm(preferred.get(i).path("preference"),
          at + "preferredDuringSchedulingIgnoredDuringExecution[" + i + "].preference", warn);
    }
  }

  /** kube's {@code GetWarningsForNodeSelectorTerm}: a deprecated label as a match expression's key. */
  private static void nodeSelectorTerm(JsonNode term, String at, Consumer<String> warn) {
    JsonNode expressions = term.path("matchExpressions");
    for (int i = 0; i < expressions.size(); i++) {
      String key = expressions.get(i).path("key").asText("");
      if (DEPRECATED_NODE_LABELS.containsKey(key)) {
        warn.accept(at + ".matchExpressions[" + i + "].key: " + key + " is " + DEPRECATED_NODE_LABELS.get(key));
      }
    }
  }

  private static void duplicates(JsonNode list, String field, String at, String what, Consumer<String> warn) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String value = list.get(i).path(field).asText("");
      if (!seen.add(value)) {
        warn.accept(at + "[" + i + "]." + field + ": " + what + " " + io.listwatch.api.Strconv.quote(value));
      }
    }
  }

  /** Memory and ephemeral storage in whole bytes: kube warns about {@code 1500m} of memory. */
  private static void fractionalBytes(JsonNode resources, String at, Consumer<String> warn) {
    for (String resource : List.of("memory", "ephemeral-storage")) {
      JsonNode value = resources.get(resource);
      if (value == null || !value.isTextual() && !value.isNumber()) {
        continue;
      }
      try {
        Quantity q = Quantity.of(value.asText());
        BigDecimal amount = q.amount();
        if (amount.signum() != 0 && amount.stripTrailingZeros().scale() > 0) {
          warn.accept(at + "[" + resource + "]: fractional byte value " + io.listwatch.api.Strconv.quote(q.toString())
              + " is invalid, must be an integer");
        }
      } catch (IllegalArgumentException e) {
        // validation has refused it already
      }
    }
  }

  /**
   * An env var of a name given before hides that one, which apply may drop: warned unless it
   * refers to the earlier value ({@code X=$(X)suffix}) without being only that reference.
   */
  private static void hiddenEnv(JsonNode env, String at, Consumer<String> warn) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < env.size(); i++) {
      JsonNode e = env.get(i);
      String name = e.path("name").asText("");
      if (names.add(name)) {
        continue;
      }
      String ref = "$(" + name + ")";
      String value = e.path("value").asText("");
      if (NumericFields.given(e.get("valueFrom")) || value.equals(ref) || !value.contains(ref)) {
        warn.accept(at + "[" + i + "]: hides previous definition of " + io.listwatch.api.Strconv.quote(name)
            + ", which may be dropped when using apply");
      }
    }
  }

  /**
   * The same containerPort and protocol twice across the pod's containers: a duplicate when the
   * host IP and port are the same too, an overlap when one of the two has no host port.
   */
  private static void ports(JsonNode list, String at, Map<String, String> seen, Consumer<String> warn) {
    for (int i = 0; i < list.size(); i++) {
      JsonNode p = list.get(i);
      String here = at + "[" + i + "]";
      String key = p.path("containerPort").asText() + "/" + p.path("protocol").asText("TCP");
      String host = p.path("hostIP").asText("") + ":" + p.path("hostPort").asLong(0);
      for (Map.Entry<String, String> other : seen.entrySet()) {
        String[] k = other.getKey().split("\\|", 2);
        if (!k[0].equals(key)) {
          continue;
        }
        if (k[1].equals(host)) {
          warn.accept(here + ": duplicate port definition with " + other.getValue());
        } else if (p.path("hostPort").asLong(0) == 0 || k[1].endsWith(":0")) {
          warn.accept(here + ": overlapping port definition with " + other.getValue());
        }
      }
      seen.putIfAbsent(key + "|" + host, here);
    }
  }
}

package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.core.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code RuntimeClass} admission plug-in, for new pods that name a
 * {@code spec.runtimeClassName}: the RuntimeClass (node.k8s.io) must exist (403
 * {@code pod rejected: RuntimeClass "<x>" not found}).
 *
 * <p>Mutating: the pod gets the class's {@code overhead.podFixed} as {@code spec.overhead}
 * (403 when it states another), the class's {@code scheduling.nodeSelector} merged into its
 * own (403 on a key with another value) and the class's tolerations merged into its own, a
 * toleration another already covers left out (kube's {@code MergeTolerations}).
 *
 * <p>Validating: a pod with an overhead must have it from its class (403 when the class has
 * none, or another).
 *
 * <p>Thread-safe: no state beyond its listers.
 */
public final class RuntimeClass implements AdmissionPlugin {

  private final Listers listers;

  public RuntimeClass(Listers listers) {
    this.listers = listers;
  }

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "pods")) {
      return;
    }
    ObjectNode spec = AdmittedObjects.object(a.object(), "spec");
    Optional<ObjectNode> rc = runtimeClass(a, spec);
    if (rc.isEmpty()) {
      return;
    }
    JsonNode overhead = rc.get().path("overhead").path("podFixed");
    if (overhead.isObject()) {
      if (!spec.path("overhead").isEmpty() && !sameResources(overhead, spec.path("overhead"))) {
        throw AdmittedObjects.forbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      }
      spec.set("overhead", overhead.deepCopy());
    }
    JsonNode scheduling = rc.get().path("scheduling");
    if (scheduling.isObject()) {
      ObjectNode nodeSelector = AdmittedObjects.object(spec, "nodeSelector");
      for (Map.Entry<String, JsonNode> e : scheduling.path("nodeSelector").properties()) {
        JsonNode podValue = nodeSelector.get(e.getKey());
        if (podValue != null && !podValue.asText().equals(e.getValue().asText())) {
          throw AdmittedObjects.forbidden(a, "conflict: runtimeClass.scheduling.nodeSelector[" + e.getKey() + "] = "
              + e.getValue().asText() + "; pod.spec.nodeSelector[" + e.getKey() + "] = " + podValue.asText());
        }
        nodeSelector.set(e.getKey(), e.getValue().deepCopy());
      }
      if (nodeSelector.isEmpty()) {
        spec.remove("nodeSelector");
      }
      List<JsonNode> all = new ArrayList<>();
      spec.path("tolerations").forEach(all::add);
      scheduling.path("tolerations").forEach(t -> all.add(t.deepCopy()));
      ArrayNode merged = spec.arrayNode();
      merged.addAll(mergeTolerations(all));
      if (!merged.isEmpty()) {
        spec.set("tolerations", merged);
      }
    }
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "pods")) {
      return CompletableFuture.completedFuture(null);
    }
    try {
      JsonNode spec = a.object().path("spec");
      Optional<ObjectNode> rc = runtimeClass(a, spec);
      if (!spec.path("overhead").isEmpty()) {
        JsonNode overhead = rc.map(c -> c.path("overhead").path("podFixed")).orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
        if (!overhead.isObject()) {
          throw AdmittedObjects.forbidden(a, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
        }
        if (!sameResources(overhead, spec.path("overhead"))) {
          throw AdmittedObjects.forbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
        }
      }
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The class the pod names, if it names one; 403 when it does not exist. */
  private Optional<ObjectNode> runtimeClass(AdmissionAttributes a, JsonNode spec) {
    if (!AdmittedObjects.isSet(spec, "runtimeClassName")) {
      return Optional.empty();
    }
    String name = spec.get("runtimeClassName").asText();
    Optional<ObjectNode> rc = listers.get("node.k8s.io", "runtimeclasses", "", name);
    if (rc.isEmpty()) {
      throw AdmittedObjects.forbidden(a, "pod rejected: RuntimeClass \"" + name + "\" not found");
    }
    return rc;
  }

  /** Two resource lists of the same amounts (kube's semantic equality of quantities). */
  static boolean sameResources(JsonNode a, JsonNode b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> e : a.properties()) {
      JsonNode other = b.get(e.getKey());
      try {
        if (other == null || !Quantity.sameAmount(e.getValue().asText(), other.asText())) {
          return false;
        }
      } catch (IllegalArgumentException invalid) {
        return false;
      }
    }
    return true;
  }

  /**
   * kube's MergeTolerations: {@code all} in order, without a toleration that one kept before
   * covers, nor one that a later, different one covers.
   */
  static List<JsonNode> mergeTolerations(List<JsonNode> all) {
    List<JsonNode> merged = new ArrayList<>();
    next:
    for (int i = 0; i < all.size(); i++) {
      JsonNode t = all.get(i);
      for (JsonNode kept : merged) {
        if (isSuperset(kept, t)) {
          continue next;
        }
      }
      for (JsonNode later : all.subList(i + 1, all.size())) {
        if (!t.equals(later) && isSuperset(later, t)) {
          continue next;
        }
      }
      merged.add(t);
    }
    return merged;
  }

  /** kube's isSuperset: whether {@code ss} tolerates every taint {@code t} tolerates. */
  static boolean isSuperset(JsonNode ss, JsonNode t) {
    if (ss.equals(t)) {
      return true;
    }
    String ssKey = ss.path("key").asText("");
    String ssOperator = ss.path("operator").asText("");
    if (!t.path("key").asText("").equals(ssKey) && (!ssKey.isEmpty() || !ssOperator.equals("Exists"))) {
      return false;
    }
    String ssEffect = ss.path("effect").asText("");
    if (!t.path("effect").asText("").equals(ssEffect) && !ssEffect.isEmpty()) {
      return false;
    }
    if (ssEffect.equals("NoExecute") && AdmittedObjects.isSet(ss, "tolerationSeconds")
        && (!AdmittedObjects.isSet(t, "tolerationSeconds")
            || t.get("tolerationSeconds").asLong() > ss.get("tolerationSeconds").asLong())) {
      return false;
    }
    return switch (ssOperator) {
      case "Equal", "" -> t.path("operator").asText("").equals("Equal")
          && t.path("value").asText("").equals(ss.path("value").asText(""));
      case "Exists" -> true;
      default -> false;
    };
  }
}

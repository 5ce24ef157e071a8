package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * kube's {@code TaintNodesByCondition} admission plug-in: a new Node gets the taint
 * {@code node.kubernetes.io/not-ready:NoSchedule} unless it has one of that key and effect, so
 * nothing is scheduled to it before its kubelet reports it Ready (the node lifecycle
 * controller then removes it). Mutating only. Stateless.
 */
public final class TaintNodesByCondition implements AdmissionPlugin {

  static final String NOT_READY = "node.kubernetes.io/not-ready";

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "nodes")) {
      return;
    }
    ArrayNode taints = AdmittedObjects.array(AdmittedObjects.object(a.object(), "spec"), "taints");
    for (JsonNode t : taints) {
      if (t.path("key").asText("").equals(NOT_READY) && t.path("effect").asText("").equals("NoSchedule")) {
        return;
      }
    }
    taints.addObject().put("key", NOT_READY).put("effect", "NoSchedule");
  }
}

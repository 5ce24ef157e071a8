package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * kube's {@code DefaultTolerationSeconds} admission plug-in: a pod created or updated without a
 * toleration of the {@code NoExecute} taints {@code node.kubernetes.io/not-ready} and
 * {@code node.kubernetes.io/unreachable} gets one for each ({@code operator: Exists},
 * {@code tolerationSeconds: 300}, kube's default), so it is evicted five minutes after its
 * node fails. A toleration of every key, or of every effect, counts. Mutating only. Stateless.
 */
public final class DefaultTolerationSeconds implements AdmissionPlugin {

  static final String NOT_READY = "node.kubernetes.io/not-ready";
  static final String UNREACHABLE = "node.kubernetes.io/unreachable";
  static final long DEFAULT_SECONDS = 300;

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "pods")
        && !a.is(AdmissionAttributes.Operation.UPDATE, "", "pods")) {
      return;
    }
    ArrayNode tolerations = AdmittedObjects.array(AdmittedObjects.object(a.object(), "spec"), "tolerations");
    boolean notReady = tolerates(tolerations, NOT_READY);
    boolean unreachable = tolerates(tolerations, UNREACHABLE);
    if (!notReady) {
      add(tolerations, NOT_READY);
    }
    if (!unreachable) {
      add(tolerations, UNREACHABLE);
    }
  }

  private static boolean tolerates(JsonNode tolerations, String key) {
    for (JsonNode t : tolerations) {
      String k = t.path("key").asText("");
      String effect = t.path("effect").asText("");
      if ((k.equals(key) || k.isEmpty()) && (effect.equals("NoExecute") || effect.isEmpty())) {
        return true;
      }
    }
    return false;
  }

  private static void add(ArrayNode tolerations, String key) {
    tolerations.addObject().put("key", key).put("operator", "Exists").put("effect", "NoExecute")
        .put("tolerationSeconds", DEFAULT_SECONDS);
  }
}

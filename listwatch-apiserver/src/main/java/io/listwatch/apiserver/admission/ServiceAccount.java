package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code ServiceAccount} admission plug-in, for new pods: a pod that names no service
 * account runs as {@code default} ({@code spec.serviceAccountName}, and the deprecated
 * {@code spec.serviceAccount} that kube's v1 form mirrors it into). A mirror pod (annotation
 * {@code kubernetes.io/config.mirror}, made by a kubelet for a static pod) gets none and may
 * reference none: 403 Forbidden.
 *
 * <p>Not yet as kube: the named account is not looked up (kube refuses a pod whose account does
 * not exist) and no API token volume is mounted. Thread-safe.
 */
public final class ServiceAccount implements AdmissionPlugin {

  static final String DEFAULT_ACCOUNT = "default";
  static final String MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "pods") || mirror(a.object())) {
      return;
    }
    ObjectNode spec = a.object().get("spec") instanceof ObjectNode s ? s : a.object().putObject("spec");
    String account = spec.path("serviceAccountName").asText("");
    if (account.isEmpty()) {
      account = spec.path("serviceAccount").asText("");
    }
    if (account.isEmpty()) {
      account = DEFAULT_ACCOUNT;
    }
    spec.put("serviceAccountName", account);
    spec.put("serviceAccount", account);
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (a.is(AdmissionAttributes.Operation.CREATE, "", "pods") && mirror(a.object())
        && !a.object().path("spec").path("serviceAccountName").asText("").isEmpty()) {
      return CompletableFuture.failedFuture(StatusException.forbidden("", "pods", a.name(),
          "a mirror pod may not reference service accounts"));
    }
    return CompletableFuture.completedFuture(null);
  }

  private static boolean mirror(ObjectNode pod) {
    return pod.path("metadata").path("annotations").has(MIRROR_POD_ANNOTATION);
  }
}

package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Restricted {@code runAsNonRoot} (kube's {@code check_runAsNonRoot.go}), from v1.0: the pod
 * sets {@code securityContext.runAsNonRoot=true}, or every container does; nobody sets it to
 * false. (kube 1.32 relaxes it for user-namespaced pods only behind an alpha gate, off by
 * default; not done here.) Stateless.
 */
final class RunAsNonRoot {

  private RunAsNonRoot() {
  }

  static Check check() {
    return Check.of("runAsNonRoot", Level.RESTRICTED, 0, RunAsNonRoot::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    JsonNode pod = Containers.securityContext(spec).path("runAsNonRoot");
    boolean badPod = pod.isBoolean() && !pod.booleanValue();
    boolean podNonRoot = Containers.isTrue(pod);
    List<String> explicitlyBad = new ArrayList<>();
    List<String> implicitlyBad = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      JsonNode nonRoot = Containers.securityContext(c).path("runAsNonRoot");
      if (nonRoot.isBoolean()) {
        if (!nonRoot.booleanValue()) {
          explicitlyBad.add(Containers.name(c));
        }
      } else if (!podNonRoot) {
        implicitlyBad.add(Containers.name(c));
      }
    }
    List<String> setters = Messages.setters(badPod, explicitlyBad);
    if (!setters.isEmpty()) {
      return CheckResult.forbidden("runAsNonRoot != true",
          String.join(" and ", setters) + " must not set securityContext.runAsNonRoot=false");
    }
    return implicitlyBad.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("runAsNonRoot != true",
        "pod or " + Messages.containers(implicitlyBad) + " must set securityContext.runAsNonRoot=true");
  }
}

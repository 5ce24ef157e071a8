package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Restricted {@code runAsUser} (kube's {@code check_runAsUser.go}), from v1.23: neither the pod
 * nor a container sets {@code securityContext.runAsUser=0}. (kube 1.32 relaxes it for
 * user-namespaced pods only behind an alpha gate, off by default; not done here.) Stateless.
 */
final class RunAsUser {

  private RunAsUser() {
  }

  static Check check() {
    return Check.of("runAsUser", Level.RESTRICTED, 23, RunAsUser::v1_23);
  }

  private static boolean root(JsonNode securityContext) {
    JsonNode user = securityContext.path("runAsUser");
    return user.isIntegralNumber() && user.longValue() == 0;
  }

  static CheckResult v1_23(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      if (root(Containers.securityContext(c))) {
        bad.add(Containers.name(c));
      }
    }
    List<String> setters = Messages.setters(root(Containers.securityContext(spec)), bad);
    return setters.isEmpty() ? CheckResult.ALLOWED
        : CheckResult.forbidden("runAsUser=0", String.join(" and ", setters) + " must not set runAsUser=0");
  }
}

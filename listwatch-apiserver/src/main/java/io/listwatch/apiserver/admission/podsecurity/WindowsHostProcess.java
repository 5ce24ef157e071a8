package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Baseline {@code windowsHostProcess} (kube's {@code check_windowsHostProcess.go}), from v1.0:
 * neither the pod nor a container sets {@code securityContext.windowsOptions.hostProcess=true}.
 * Stateless.
 */
final class WindowsHostProcess {

  private WindowsHostProcess() {
  }

  static Check check() {
    return Check.of("windowsHostProcess", Level.BASELINE, 0, WindowsHostProcess::v1_0);
  }

  private static boolean hostProcess(JsonNode securityContext) {
    return Containers.isTrue(securityContext.path("windowsOptions").path("hostProcess"));
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      if (hostProcess(Containers.securityContext(c))) {
        bad.add(Containers.name(c));
      }
    }
    List<String> setters = Messages.setters(hostProcess(Containers.securityContext(spec)), bad);
    return setters.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("hostProcess",
        String.join(" and ", setters) + " must not set securityContext.windowsOptions.hostProcess=true");
  }
}

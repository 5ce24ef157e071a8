package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Baseline {@code procMount} (kube's {@code check_procMount.go}), from v1.0: containers leave
 * {@code securityContext.procMount} unset or {@code Default}. (kube 1.32 relaxes it for pods in a
 * user namespace only behind the alpha gate {@code UserNamespacesPodSecurityStandards}, off by
 * default; not done here.) Stateless.
 */
final class ProcMount {

  private ProcMount() {
  }

  static Check check() {
    return Check.of("procMount", Level.BASELINE, 0, ProcMount::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> types = new TreeSet<>();
    for (JsonNode c : Containers.of(spec)) {
      JsonNode procMount = Containers.securityContext(c).path("procMount");
      if (Containers.set(procMount) && !"Default".equals(procMount.asText())) {
        bad.add(Containers.name(c));
        types.add(procMount.asText());
      }
    }
    return bad.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("procMount",
        Messages.containers(bad) + " must not set securityContext.procMount to " + Messages.joinQuote(types));
  }
}

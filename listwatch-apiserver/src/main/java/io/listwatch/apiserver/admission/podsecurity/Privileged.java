package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Baseline {@code privileged} (kube's {@code check_privileged.go}), from v1.0: no container sets
 * {@code securityContext.privileged=true}. Stateless.
 */
final class Privileged {

  private Privileged() {
  }

  static Check check() {
    return Check.of("privileged", Level.BASELINE, 0, Privileged::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      if (Containers.isTrue(Containers.securityContext(c).path("privileged"))) {
        bad.add(Containers.name(c));
      }
    }
    return bad.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("privileged",
        Messages.containers(bad) + " must not set securityContext.privileged=true");
  }
}

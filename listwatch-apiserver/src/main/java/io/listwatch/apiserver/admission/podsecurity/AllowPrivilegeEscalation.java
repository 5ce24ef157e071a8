package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Restricted {@code allowPrivilegeEscalation} (kube's {@code check_allowPrivilegeEscalation.go}):
 * from v1.8 every container sets {@code securityContext.allowPrivilegeEscalation=false} (unset
 * counts as true); from v1.25 a Windows pod is not checked. Stateless.
 */
final class AllowPrivilegeEscalation {

  private AllowPrivilegeEscalation() {
  }

  static Check check() {
    return new Check("allowPrivilegeEscalation", Level.RESTRICTED, List.of(
        new Check.Versioned(Version.of(8), AllowPrivilegeEscalation::v1_8, List.of()),
        new Check.Versioned(Version.of(25), WindowsPods.exempting(AllowPrivilegeEscalation::v1_8), List.of())));
  }

  static CheckResult v1_8(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      JsonNode allow = Containers.securityContext(c).path("allowPrivilegeEscalation");
      if (!allow.isBoolean() || allow.booleanValue()) {
        bad.add(Containers.name(c));
      }
    }
    return bad.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("allowPrivilegeEscalation != false",
        Messages.containers(bad) + " must set securityContext.allowPrivilegeEscalation=false");
  }
}

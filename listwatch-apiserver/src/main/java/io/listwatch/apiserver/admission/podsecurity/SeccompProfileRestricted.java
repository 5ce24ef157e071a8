package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Restricted {@code seccompProfile_restricted} (kube's
 * {@code check_seccompProfile_restricted.go}): from v1.19 a seccomp profile of type
 * {@code RuntimeDefault} or {@code Localhost} is set on the pod or on every container; from v1.25
 * a Windows pod is not checked. Replaces {@link SeccompProfileBaseline}. Stateless.
 */
final class SeccompProfileRestricted {

  private SeccompProfileRestricted() {
  }

  static Check check() {
    List<String> overrides = List.of(SeccompProfileBaseline.ID);
    return new Check("seccompProfile_restricted", Level.RESTRICTED, List.of(
        new Check.Versioned(Version.of(19), SeccompProfileRestricted::v1_19, overrides),
        new Check.Versioned(Version.of(25), WindowsPods.exempting(SeccompProfileRestricted::v1_19), overrides)));
  }

  static CheckResult v1_19(JsonNode metadata, JsonNode spec) {
    SeccompProfileBaseline.Explicit set = SeccompProfileBaseline.Explicit.of(spec);
    return set.failure().orElseGet(() -> set.podValid() || set.unsetContainers().isEmpty() ? CheckResult.ALLOWED
        : CheckResult.forbidden("seccompProfile", "pod or " + Messages.containers(set.unsetContainers())
            + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\""));
  }
}

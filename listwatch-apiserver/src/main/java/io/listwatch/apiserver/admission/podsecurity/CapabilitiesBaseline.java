package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Baseline {@code capabilities_baseline} (kube's {@code check_capabilities_baseline.go}), from
 * v1.0: containers add no capability beyond the container runtime's default set. Restricted
 * replaces it with {@link CapabilitiesRestricted} from v1.22. Stateless.
 */
final class CapabilitiesBaseline {

  static final String ID = "capabilities_baseline";

  /** The capabilities a container may add at baseline. */
  static final Set<String> ALLOWED_1_0 = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL",
      "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");

  private CapabilitiesBaseline() {
  }

  static Check check() {
    return Check.of(ID, Level.BASELINE, 0, CapabilitiesBaseline::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> added = new TreeSet<>();
    for (JsonNode c : Containers.of(spec)) {
      boolean valid = true;
      for (JsonNode cap : Containers.securityContext(c).path("capabilities").path("add")) {
        if (!ALLOWED_1_0.contains(cap.asText())) {
          valid = false;
          added.add(cap.asText());
        }
      }
      if (!valid) {
        bad.add(Containers.name(c));
      }
    }
    return bad.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("non-default capabilities",
        Messages.containers(bad) + " must not include " + Messages.joinQuote(added)
            + " in securityContext.capabilities.add");
  }
}

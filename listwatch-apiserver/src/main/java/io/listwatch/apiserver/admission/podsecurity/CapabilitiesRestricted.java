package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Restricted {@code capabilities_restricted} (kube's {@code check_capabilities_restricted.go}):
 * from v1.22 every container drops {@code ALL} and adds nothing but {@code NET_BIND_SERVICE};
 * from v1.25 a Windows pod ({@code spec.os.name: windows}) is not checked. Replaces
 * {@link CapabilitiesBaseline}. Stateless.
 */
final class CapabilitiesRestricted {

  private CapabilitiesRestricted() {
  }

  static Check check() {
    List<String> overrides = List.of(CapabilitiesBaseline.ID);
    return new Check("capabilities_restricted", Level.RESTRICTED, List.of(
        new Check.Versioned(Version.of(22), CapabilitiesRestricted::v1_22, overrides),
        new Check.Versioned(Version.of(25), WindowsPods.exempting(CapabilitiesRestricted::v1_22), overrides)));
  }

  static CheckResult v1_22(JsonNode metadata, JsonNode spec) {
    List<String> missingDropAll = new ArrayList<>();
    List<String> addingForbidden = new ArrayList<>();
    TreeSet<String> forbidden = new TreeSet<>();
    for (JsonNode c : Containers.of(spec)) {
      JsonNode capabilities = Containers.securityContext(c).path("capabilities");
      boolean droppedAll = false;
      for (JsonNode cap : capabilities.path("drop")) {
        droppedAll |= "ALL".equals(cap.asText());
      }
      if (!droppedAll) {
        missingDropAll.add(Containers.name(c));
      }
      boolean adds = false;
      for (JsonNode cap : capabilities.path("add")) {
        if (!"NET_BIND_SERVICE".equals(cap.asText())) {
          adds = true;
          forbidden.add(cap.asText());
        }
      }
      if (adds) {
        addingForbidden.add(Containers.name(c));
      }
    }
    List<String> details = new ArrayList<>();
    if (!missingDropAll.isEmpty()) {
      details.add(Messages.containers(missingDropAll) + " must set securityContext.capabilities.drop=[\"ALL\"]");
    }
    if (!addingForbidden.isEmpty()) {
      details.add(Messages.containers(addingForbidden) + " must not include " + Messages.joinQuote(forbidden)
          + " in securityContext.capabilities.add");
    }
    return details.isEmpty() ? CheckResult.ALLOWED
        : CheckResult.forbidden("unrestricted capabilities", String.join("; ", details));
  }
}

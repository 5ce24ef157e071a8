package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Baseline {@code hostPorts} (kube's {@code check_hostPorts.go}), from v1.0: no container port
 * sets a {@code hostPort}. The ports are listed once each, sorted as strings (as kube's string
 * set sorts them). Stateless.
 */
final class HostPorts {

  private HostPorts() {
  }

  static Check check() {
    return Check.of("hostPorts", Level.BASELINE, 0, HostPorts::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> ports = new TreeSet<>();
    for (JsonNode c : Containers.of(spec)) {
      boolean uses = false;
      for (JsonNode p : c.path("ports")) {
        long hostPort = p.path("hostPort").asLong(0);
        if (hostPort != 0) {
          uses = true;
          ports.add(Long.toString(hostPort));
        }
      }
      if (uses) {
        bad.add(Containers.name(c));
      }
    }
    if (bad.isEmpty()) {
      return CheckResult.ALLOWED;
    }
    return CheckResult.forbidden("hostPort", Messages.containers(bad) + " "
        + Messages.pluralize("uses", "use", bad.size()) + " "
        + Messages.pluralize("hostPort", "hostPorts", ports.size()) + " " + String.join(", ", ports));
  }
}

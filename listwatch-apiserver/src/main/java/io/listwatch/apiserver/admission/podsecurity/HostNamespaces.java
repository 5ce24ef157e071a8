package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Baseline {@code hostNamespaces} (kube's {@code check_hostNamespaces.go}), from v1.0: a pod
 * shares none of the host's namespaces ({@code hostNetwork}, {@code hostPID}, {@code hostIPC}).
 * Stateless.
 */
final class HostNamespaces {

  private HostNamespaces() {
  }

  static Check check() {
    return Check.of("hostNamespaces", Level.BASELINE, 0, HostNamespaces::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> shared = new ArrayList<>();
    for (String field : List.of("hostNetwork", "hostPID", "hostIPC")) {
      if (Containers.isTrue(spec.path(field))) {
        shared.add(field + "=true");
      }
    }
    return shared.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("host namespaces", String.join(", ", shared));
  }
}

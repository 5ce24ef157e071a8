package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Baseline {@code sysctls} (kube's {@code check_sysctls.go}): the pod sets only the safe,
 * namespaced sysctls in {@code spec.securityContext.sysctls}, a set that grew with the versions:
 * v1.0, then {@code net.ipv4.ip_local_reserved_ports} in v1.27, the TCP keepalive and FIN
 * timeout sysctls in v1.29, {@code net.ipv4.tcp_rmem} and {@code net.ipv4.tcp_wmem} in v1.32.
 * Stateless.
 */
final class Sysctls {

  static final Set<String> ALLOWED_1_0 = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
      "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start");
  static final Set<String> ALLOWED_1_27 = union(ALLOWED_1_0, "net.ipv4.ip_local_reserved_ports");
  static final Set<String> ALLOWED_1_29 = union(ALLOWED_1_27, "net.ipv4.tcp_keepalive_time",
      "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
  static final Set<String> ALLOWED_1_32 = union(ALLOWED_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");

  private Sysctls() {
  }

  private static Set<String> union(Set<String> base, String... more) {
    Set<String> all = new HashSet<>(base);
    all.addAll(List.of(more));
    return Set.copyOf(all);
  }

  static Check check() {
    return new Check("sysctls", Level.BASELINE, List.of(
        new Check.Versioned(Version.of(0), (m, s) -> check(s, ALLOWED_1_0), List.of()),
        new Check.Versioned(Version.of(27), (m, s) -> check(s, ALLOWED_1_27), List.of()),
        new Check.Versioned(Version.of(29), (m, s) -> check(s, ALLOWED_1_29), List.of()),
        new Check.Versioned(Version.of(32), (m, s) -> check(s, ALLOWED_1_32), List.of())));
  }

  static CheckResult check(JsonNode spec, Set<String> allowed) {
    List<String> forbidden = new ArrayList<>();
    for (JsonNode sysctl : Containers.securityContext(spec).path("sysctls")) {
      String name = sysctl.path("name").asText("");
      if (!allowed.contains(name)) {
        forbidden.add(name);
      }
    }
    return forbidden.isEmpty() ? CheckResult.ALLOWED
        : CheckResult.forbidden("forbidden sysctls", String.join(", ", forbidden));
  }
}

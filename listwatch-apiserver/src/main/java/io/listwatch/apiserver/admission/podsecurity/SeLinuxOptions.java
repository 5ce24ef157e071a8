package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Baseline {@code seLinuxOptions} (kube's {@code check_seLinuxOptions.go}), from v1.0: the pod
 * and its containers set {@code securityContext.seLinuxOptions.type} only to "",
 * {@code container_t}, {@code container_init_t} or {@code container_kvm_t} (and, from v1.31,
 * {@code container_engine_t}), and set no {@code user} or {@code role}. Stateless.
 */
final class SeLinuxOptions {

  static final Set<String> TYPES_1_0 = Set.of("", "container_t", "container_init_t", "container_kvm_t");
  static final Set<String> TYPES_1_31 = Set.of("", "container_t", "container_init_t", "container_kvm_t",
      "container_engine_t");

  private SeLinuxOptions() {
  }

  static Check check() {
    return new Check("seLinuxOptions", Level.BASELINE, List.of(
        new Check.Versioned(Version.of(0), (m, s) -> check(s, TYPES_1_0), List.of()),
        new Check.Versioned(Version.of(31), (m, s) -> check(s, TYPES_1_31), List.of())));
  }

  /** What one evaluation found wrong, across the pod and its containers. */
  private static final class Findings {
    final TreeSet<String> badTypes = new TreeSet<>();
    boolean setUser;
    boolean setRole;

    /** Whether {@code options} (set) are allowed; notes what is not. */
    boolean valid(JsonNode options, Set<String> types) {
      boolean valid = true;
      String type = options.path("type").asText("");
      if (!types.contains(type)) {
        valid = false;
        badTypes.add(type);
      }
      if (!options.path("user").asText("").isEmpty()) {
        valid = false;
        setUser = true;
      }
      if (!options.path("role").asText("").isEmpty()) {
        valid = false;
        setRole = true;
      }
      return valid;
    }
  }

  static CheckResult check(JsonNode spec, Set<String> types) {
    Findings found = new Findings();
    JsonNode podOptions = Containers.securityContext(spec).path("seLinuxOptions");
    boolean badPod = Containers.set(podOptions) && !found.valid(podOptions, types);
    List<String> badContainers = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      JsonNode options = Containers.securityContext(c).path("seLinuxOptions");
      if (Containers.set(options) && !found.valid(options, types)) {
        badContainers.add(Containers.name(c));
      }
    }
    List<String> setters = Messages.setters(badPod, badContainers);
    if (setters.isEmpty()) {
      return CheckResult.ALLOWED;
    }
    List<String> data = new ArrayList<>();
    if (!found.badTypes.isEmpty()) {
      data.add(Messages.pluralize("type", "types", found.badTypes.size()) + " " + Messages.joinQuote(found.badTypes));
    }
    if (found.setUser) {
      data.add("user may not be set");
    }
    if (found.setRole) {
      data.add("role may not be set");
    }
    return CheckResult.forbidden("seLinuxOptions", String.join(" and ", setters)
        + " set forbidden securityContext.seLinuxOptions: " + String.join("; ", data));
  }
}

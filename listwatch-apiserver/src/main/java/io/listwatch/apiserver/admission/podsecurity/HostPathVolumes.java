package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Baseline {@code hostPathVolumes} (kube's {@code check_hostPathVolumes.go}), from v1.0: no
 * {@code hostPath} volume. Restricted replaces it with {@link RestrictedVolumes}. Stateless.
 */
final class HostPathVolumes {

  static final String ID = "hostPathVolumes";

  private HostPathVolumes() {
  }

  static Check check() {
    return Check.of(ID, Level.BASELINE, 0, HostPathVolumes::v1_0);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    for (JsonNode v : spec.path("volumes")) {
      if (Containers.set(v.path("hostPath"))) {
        bad.add(v.path("name").asText(""));
      }
    }
    return bad.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("hostPath volumes",
        Messages.pluralize("volume", "volumes", bad.size()) + " " + Messages.joinQuote(bad));
  }
}

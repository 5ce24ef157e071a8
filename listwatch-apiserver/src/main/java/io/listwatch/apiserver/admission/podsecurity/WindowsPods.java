package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Windows pods ({@code spec.os.name: windows}), which kube's restricted checks from v1.25 leave
 * alone for the Linux-only fields: pod validation already refuses those fields on them.
 * Stateless.
 */
final class WindowsPods {

  private WindowsPods() {
  }

  /** Whether {@code spec} declares the Windows OS. */
  static boolean is(JsonNode spec) {
    return "windows".equals(spec.path("os").path("name").asText(""));
  }

  /** {@code linux}, passing every Windows pod. */
  static Check.PodCheck exempting(Check.PodCheck linux) {
    return (metadata, spec) -> is(spec) ? CheckResult.ALLOWED : linux.check(metadata, spec);
  }
}

package io.listwatch.apiserver.admission.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.listwatch.apiserver.InMemoryCore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which checks a level at a version runs, and in what order (kube's {@code registry.go}): the
 * baseline checks by id, then the restricted ones, restricted checks replacing the baseline
 * ones they override from their first version on.
 */
class EvaluatorTest {

  private static final String POD = """
      {"hostNetwork":true,"volumes":[{"name":"h","hostPath":{"path":"/"}}],
       "containers":[{"name":"c","securityContext":{"capabilities":{"add":["SYS_ADMIN"]},"runAsUser":0}}]}""";

  private static String evaluate(String levelVersion, String spec) {
    String[] lv = levelVersion.split(":");
    JsonNode pod = InMemoryCore.json(spec);
    return AggregateCheckResult.of(Evaluator.DEFAULT.evaluate(new LevelVersion(Level.valueOf(lv[0].toUpperCase(
        java.util.Locale.ROOT)), Version.parse(lv[1]).orElseThrow()), MissingNode.getInstance(), pod))
        .forbiddenReason();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      privileged:latest | ''
      baseline:latest   | non-default capabilities, host namespaces, hostPath volumes
      baseline:v1.0     | non-default capabilities, host namespaces, hostPath volumes
      restricted:v1.0   | non-default capabilities, host namespaces, restricted volume types, runAsNonRoot != true
      restricted:v1.8   | non-default capabilities, host namespaces, allowPrivilegeEscalation != false, restricted volume types, runAsNonRoot != true
      restricted:v1.19  | non-default capabilities, host namespaces, allowPrivilegeEscalation != false, restricted volume types, runAsNonRoot != true, seccompProfile
      restricted:v1.22  | host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile
      restricted:v1.23  | host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, runAsUser=0, seccompProfile
      restricted:latest | host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, runAsUser=0, seccompProfile
      restricted:v1.99  | host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, runAsUser=0, seccompProfile
      """)
  void levelsAndVersions_runTheirChecks_inKubesOrder(String levelVersion, String reasons) {
    assertThat(evaluate(levelVersion, POD)).isEqualTo(reasons);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      restricted:v1.18 | {"containers":[{"name":"c","securityContext":{"allowPrivilegeEscalation":false,"runAsNonRoot":true}}]} | ''
      restricted:v1.19 | {"containers":[{"name":"c","securityContext":{"allowPrivilegeEscalation":false,"runAsNonRoot":true}}]} | seccompProfile
      """)
  void aCheck_appliesFromItsFirstVersion(String levelVersion, String spec, String reasons) {
    assertThat(evaluate(levelVersion, spec)).isEqualTo(reasons);
  }

  @org.junit.jupiter.api.Test
  void theNewestVersion_isKube132s() {
    assertThat(Evaluator.DEFAULT.newest()).isEqualTo(Version.of(32));
  }
}

package io.listwatch.apiserver.admission.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.Status;
import io.listwatch.apiserver.InMemoryCore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A namespace's labels read as kube's {@code PolicyToEvaluate} reads them (kube's {@code api/helpers_test.go}). */
class PolicyTest {

  private static Policy.Parsed parse(String labels) {
    return Policy.fromLabels(InMemoryCore.json(labels));
  }

  @Test
  void noLabels_isKubesDefault_everythingPrivileged() {
    assertThat(Policy.fromLabels(null)).isEqualTo(new Policy.Parsed(Policy.DEFAULT, java.util.List.of()));
    assertThat(parse("{\"app\":\"x\"}").policy()).isEqualTo(Policy.DEFAULT);
    assertThat(Policy.DEFAULT.fullyPrivileged()).isTrue();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"pod-security.kubernetes.io/enforce":"restricted"}                                                | restricted:latest | privileged:latest | privileged:latest
      {"pod-security.kubernetes.io/enforce":"baseline","pod-security.kubernetes.io/enforce-version":"v1.22"} | baseline:v1.22 | privileged:latest | privileged:latest
      {"pod-security.kubernetes.io/enforce-version":"v1.0"}                                              | privileged:v1.0   | privileged:latest | privileged:latest
      {"pod-security.kubernetes.io/audit":"baseline","pod-security.kubernetes.io/warn":"restricted","pod-security.kubernetes.io/warn-version":"latest"} | privileged:latest | baseline:latest | restricted:latest
      """)
  void validLabels(String labels, String enforce, String audit, String warn) {
    Policy.Parsed p = parse(labels);
    assertThat(p.errors()).isEmpty();
    assertThat(p.policy().enforce()).hasToString(enforce);
    assertThat(p.policy().audit()).hasToString(audit);
    assertThat(p.policy().warn()).hasToString(warn);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      pod-security.kubernetes.io/enforce         | strict       | restricted:latest | privileged:latest | privileged:latest | must be one of privileged, baseline, restricted
      pod-security.kubernetes.io/enforce         | Restricted   | restricted:latest | privileged:latest | privileged:latest | must be one of privileged, baseline, restricted
      pod-security.kubernetes.io/warn            | strict       | privileged:latest | privileged:latest | privileged:latest | must be one of privileged, baseline, restricted
      pod-security.kubernetes.io/audit           | strict       | privileged:latest | privileged:latest | privileged:latest | must be one of privileged, baseline, restricted
      pod-security.kubernetes.io/enforce-version | 1.25         | privileged:latest | privileged:latest | privileged:latest | must be "latest" or "v1.x"
      pod-security.kubernetes.io/enforce-version | v1.025       | privileged:latest | privileged:latest | privileged:latest | must be "latest" or "v1.x"
      pod-security.kubernetes.io/warn-version    | v2.0         | privileged:latest | privileged:latest | privileged:latest | must be "latest" or "v1.x"
      pod-security.kubernetes.io/audit-version   | v1.99999999999 | privileged:latest | privileged:latest | privileged:latest | must be "latest" or "v1.x"
      """)
  void invalidLabels_failClosedForEnforce_andOpenForWarnAndAudit(String key, String value, String enforce,
      String audit, String warn, String detail) {
    Policy.Parsed p = parse("{\"" + key + "\":\"" + value + "\"}");
    assertThat(p.policy().enforce()).hasToString(enforce);
    assertThat(p.policy().audit()).hasToString(audit);
    assertThat(p.policy().warn()).hasToString(warn);
    assertThat(p.errors()).extracting(Status.Cause::field, Status.Cause::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple("metadata.labels[" + key + "]",
            "Invalid value: \"" + value + "\": " + detail));
  }

  @Test
  void versions_orderWithLatestNewest() {
    assertThat(Version.parse("v1.9").orElseThrow()).isLessThan(Version.parse("v1.10").orElseThrow());
    assertThat(Version.LATEST).isGreaterThan(Version.of(1000));
    assertThat(Level.RESTRICTED.stricterThan(Level.BASELINE)).isTrue();
    assertThat(Level.PRIVILEGED.stricterThan(Level.BASELINE)).isFalse();
  }
}

package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 with the "Validating Admission Policy" page's "Type checking" example: the
 * server's policy status controller type checks a policy once it is created, and
 * {@code kubectl get -o yaml} shows {@code status.typeChecking} as kube's does (the warning ends
 * with a line break, as kube's type checker writes it, hence YAML's {@code |} where the page shows
 * {@code |-}); a correct policy gets {@code typeChecking: {}}.
 */
@EndToEnd
class KubectlValidatingAdmissionPolicyTypeCheckingTest extends KubectlAgainstServer {

  private static String policy(String name, String expression) {
    return """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata:
          name: "%s"
        spec:
          failurePolicy: Fail
          matchConstraints:
            resourceRules:
            - apiGroups:   ["apps"]
              apiVersions: ["v1"]
              operations:  ["CREATE", "UPDATE"]
              resources:   ["deployments"]
          validations:
          - expression: "%s"
        """.formatted(name, expression);
  }

  /** The {@code status:} block of the policy's YAML, once it has one (the last top-level key). */
  private static String awaitStatus(String name) {
    return Await.until("policy " + name + " is type checked", SERVER_WORK, () -> {
      String yaml = kubectl.ok("get", "validatingadmissionpolicy", name, "-o", "yaml").stdout();
      int at = yaml.indexOf("\nstatus:\n");
      return at < 0 ? "" : yaml.substring(at + 1);
    }, status -> !status.isEmpty());
  }

  @Test
  void undefinedField_isReportedInTheStatus_asKubeReportsIt() {
    kubectl.ok("apply", "-f", kubectl.file("typechecking.yaml", policy("typechecking.example.com",
        "object.replicas > 1")).toString());

    assertThat(awaitStatus("typechecking.example.com")).isEqualTo("""
        status:
          observedGeneration: 1
          typeChecking:
            expressionWarnings:
            - fieldRef: spec.validations[0].expression
              warning: |
                apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'
                 | object.replicas > 1
                 | ......^
        """);
  }

  @Test
  void correctPolicy_getsAnEmptyTypeChecking() {
    kubectl.ok("apply", "-f", kubectl.file("correct.yaml", policy("correct.example.com",
        "object.spec.replicas > 1")).toString());

    assertThat(awaitStatus("correct.example.com")).isEqualTo("""
        status:
          observedGeneration: 1
          typeChecking: {}
        """);
  }
}

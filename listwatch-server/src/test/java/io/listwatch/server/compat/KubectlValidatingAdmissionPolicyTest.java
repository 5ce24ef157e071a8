package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 with the "Validating Admission Policy" page's first example: the policy and its
 * binding applied, a Deployment with too many replicas refused in a namespace the binding
 * selects (with kube's message), let through elsewhere, and {@code kubectl get}'s columns for
 * policies and bindings.
 */
@EndToEnd
class KubectlValidatingAdmissionPolicyTest extends KubectlAgainstServer {

  private static final String POLICY = """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: "demo-policy.example.com"
      spec:
        failurePolicy: Fail
        matchConstraints:
          resourceRules:
          - apiGroups:   ["apps"]
            apiVersions: ["v1"]
            operations:  ["CREATE", "UPDATE"]
            resources:   ["deployments"]
        validations:
          - expression: "object.spec.replicas <= 5"
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata:
        name: "demo-binding-test.example.com"
      spec:
        policyName: "demo-policy.example.com"
        validationActions: [Deny]
        matchResources:
          namespaceSelector:
            matchLabels:
              environment: test
      """;

  @Test
  void docsExample_deniesTooManyReplicas_inTheTestEnvironment() {
    Kubectl.Result applied = kubectl.ok("apply", "-f", kubectl.file("policy.yaml", POLICY).toString());
    assertThat(applied.lines()).containsExactly(
        "validatingadmissionpolicy.admissionregistration.k8s.io/demo-policy.example.com created",
        "validatingadmissionpolicybinding.admissionregistration.k8s.io/demo-binding-test.example.com created");
    kubectl.ok("create", "namespace", "test");
    kubectl.ok("label", "namespace", "test", "environment=test");

    Kubectl.Result refused = kubectl.run("create", "deployment", "nginx", "--image=nginx", "--replicas=6", "-n", "test");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr().strip()).isEqualTo("error: failed to create deployment: deployments.apps \"nginx\""
        + " is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding"
        + " 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5");
    kubectl.ok("create", "deployment", "nginx", "--image=nginx", "--replicas=6", "-n", "default");

    Kubectl.Result policies = kubectl.ok("get", "validatingadmissionpolicies");
    assertThat(Arrays.asList(policies.lines().getFirst().split("\\s{2,}")))
        .containsExactly("NAME", "VALIDATIONS", "PARAMKIND", "AGE");
    assertThat(Arrays.asList(policies.lines().get(1).split("\\s{2,}")).subList(0, 3))
        .containsExactly("demo-policy.example.com", "1", "<unset>");
    Kubectl.Result bindings = kubectl.ok("get", "validatingadmissionpolicybindings");
    assertThat(Arrays.asList(bindings.lines().getFirst().split("\\s{2,}")))
        .containsExactly("NAME", "POLICYNAME", "PARAMREF", "AGE");
    assertThat(Arrays.asList(bindings.lines().get(1).split("\\s{2,}")).subList(0, 3))
        .containsExactly("demo-binding-test.example.com", "demo-policy.example.com", "<unset>");
  }
}

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
 * policies and bindings; and its "Parameter resources" example, whose params are of a custom
 * resource kind (ReplicaLimit, defined here by a CRD).
 */
@EndToEnd
class KubectlValidatingAdmissionPolicyTest extends KubectlAgainstServer {

  /** The page's basic-example-policy.yaml and basic-example-binding.yaml. */
  private static final String POLICY = DocsExamples.read("validating-admission-policy-basic.yaml");

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

  /** The ReplicaLimit kind the page leaves to its reader ("Bring Your Own CRD"). */
  private static final String REPLICA_LIMIT_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: replicalimits.rules.example.com
      spec:
        group: rules.example.com
        scope: Namespaced
        names:
          plural: replicalimits
          singular: replicalimit
          kind: ReplicaLimit
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                maxReplicas:
                  type: integer
      """;

  /** The page's policy-with-param.yaml, binding-with-param.yaml and replicalimit-param.yaml. */
  private static final String POLICY_WITH_PARAM = DocsExamples.read("validating-admission-policy-with-param.yaml") + """
      ---
      apiVersion: rules.example.com/v1
      kind: ReplicaLimit
      metadata:
        name: "replica-limit-test.example.com"
        namespace: "default"
      maxReplicas: 3
      """;

  @Test
  void docsParamsExample_customResourceParams_limitReplicasInTheTestEnvironment() {
    kubectl.ok("apply", "-f", kubectl.file("crd.yaml", REPLICA_LIMIT_CRD).toString());
    kubectl.ok("wait", "--for=condition=Established", "--timeout=30s", "crd/replicalimits.rules.example.com");
    Kubectl.Result applied = kubectl.ok("apply", "-f", kubectl.file("params.yaml", POLICY_WITH_PARAM).toString());
    assertThat(applied.lines()).containsExactly(
        "validatingadmissionpolicy.admissionregistration.k8s.io/replicalimit-policy.example.com created",
        "validatingadmissionpolicybinding.admissionregistration.k8s.io/replicalimit-binding-test.example.com created",
        "replicalimit.rules.example.com/replica-limit-test.example.com created");
    // the server is shared with the other test, which makes namespace "test": this one is also in the test environment
    kubectl.ok("create", "namespace", "limits");
    kubectl.ok("label", "namespace", "limits", "environment=test");

    Kubectl.Result refused = kubectl.run("create", "deployment", "nginx", "--image=nginx", "--replicas=4", "-n", "limits");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr().strip()).isEqualTo("error: failed to create deployment: deployments.apps \"nginx\""
        + " is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding"
        + " 'replicalimit-binding-test.example.com' denied request: failed expression:"
        + " object.spec.replicas <= params.maxReplicas");
    kubectl.ok("create", "deployment", "nginx", "--image=nginx", "--replicas=3", "-n", "limits");
    kubectl.ok("delete", "-f", kubectl.file("params.yaml", POLICY_WITH_PARAM).toString());
  }
}

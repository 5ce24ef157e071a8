package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 on admissionregistration.k8s.io's webhook configurations: the "Dynamic Admission
 * Control" page's ValidatingWebhookConfiguration applied (and applied again, changed, which
 * strategic merge patches by webhook name), {@code kubectl get}'s NAME, WEBHOOKS, AGE columns,
 * the defaults kube fills in, and kube's refusal of an invalid configuration.
 */
@EndToEnd
class KubectlWebhookConfigurationTest extends KubectlAgainstServer {

  /** The page's example, with a caBundle and a match condition. */
  private static final String POD_POLICY = """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingWebhookConfiguration
      metadata:
        name: "pod-policy.example.com"
      webhooks:
      - name: "pod-policy.example.com"
        rules:
        - apiGroups:   [""]
          apiVersions: ["v1"]
          operations:  ["CREATE"]
          resources:   ["pods"]
          scope:       "Namespaced"
        clientConfig:
          service:
            namespace: "example-namespace"
            name: "example-service"
          caBundle: "Y2EtYnVuZGxlCg=="
        admissionReviewVersions: ["v1"]
        sideEffects: None
        timeoutSeconds: 5
        matchConditions:
        - name: 'exclude-leases'
          expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")'
      """;

  private static List<String> cells(Kubectl.Result r, String prefix) {
    return r.lines().stream().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> Arrays.asList(l.trim().split("\\s{2,}")))
        .orElseThrow(() -> new AssertionError("no line starting with " + prefix + " in\n" + r));
  }

  @Test
  void apply_get_reapply() {
    Kubectl.Result created = kubectl.ok("apply", "-f", kubectl.file("vwc.yaml", POD_POLICY).toString());
    assertThat(created.lines()).containsExactly(
        "validatingwebhookconfiguration.admissionregistration.k8s.io/pod-policy.example.com created");

    Kubectl.Result got = kubectl.ok("get", "validatingwebhookconfigurations");
    assertThat(Arrays.asList(got.lines().getFirst().split("\\s{2,}"))).containsExactly("NAME", "WEBHOOKS", "AGE");
    assertThat(cells(got, "pod-policy.example.com").subList(0, 2)).containsExactly("pod-policy.example.com", "1");

    assertThat(kubectl.ok("get", "validatingwebhookconfiguration", "pod-policy.example.com", "-o",
        "jsonpath={.webhooks[0].failurePolicy} {.webhooks[0].matchPolicy} {.webhooks[0].clientConfig.service.port} "
            + "{.metadata.generation}").stdout())
        .isEqualTo("Fail Equivalent 443 1");

    Kubectl.Result reapplied = kubectl.ok("apply", "-f",
        kubectl.file("vwc2.yaml", POD_POLICY.replace("timeoutSeconds: 5", "timeoutSeconds: 7")).toString());
    assertThat(reapplied.lines()).containsExactly(
        "validatingwebhookconfiguration.admissionregistration.k8s.io/pod-policy.example.com configured");
    assertThat(kubectl.ok("get", "validatingwebhookconfiguration", "pod-policy.example.com", "-o",
        "jsonpath={.webhooks[0].timeoutSeconds} {.metadata.generation} {.webhooks[0].matchConditions[0].name}").stdout())
        .isEqualTo("7 2 exclude-leases");
  }

  @Test
  void invalidMutatingConfiguration_isRefusedWithKubesMessage() {
    String bad = """
        apiVersion: admissionregistration.k8s.io/v1
        kind: MutatingWebhookConfiguration
        metadata:
          name: admission-webhook-example
        webhooks:
        - name: admission-webhook-example.default
          clientConfig:
            url: https://webhook.example.com/mutate
          rules:
          - operations: ["GET"]
            apiGroups: [""]
            apiVersions: ["v1"]
            resources: ["pods"]
          sideEffects: None
          admissionReviewVersions: ["v1"]
        """;
    Kubectl.Result r = kubectl.run("apply", "-f", kubectl.file("mwc.yaml", bad).toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("The MutatingWebhookConfiguration \"admission-webhook-example\" is invalid: ",
        "webhooks[0].name: Invalid value: \"admission-webhook-example.default\": should be a domain with at least three "
            + "segments separated by dots",
        "webhooks[0].rules[0].operations[0]: Unsupported value: \"GET\": supported values: \"*\", \"CONNECT\", \"CREATE\", "
            + "\"DELETE\", \"UPDATE\"");

    kubectl.ok("apply", "-f", kubectl.file("mwc2.yaml", bad.replace("example.default", "example.default.svc")
        .replace("\"GET\"", "\"CREATE\"")).toString());
    Kubectl.Result got = kubectl.ok("get", "mutatingwebhookconfigurations");
    assertThat(cells(got, "admission-webhook-example").subList(0, 2)).containsExactly("admission-webhook-example", "1");
  }
}

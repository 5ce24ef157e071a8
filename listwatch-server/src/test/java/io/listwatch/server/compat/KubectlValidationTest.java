package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 (from PATH) meets kube's validation of built-in kinds, as a new user would: each
 * mistake is refused with kube's message and field path, nothing is stored, and kube's warnings
 * are printed.
 */
@EndToEnd
class KubectlValidationTest extends KubectlAgainstServer {

  private Kubectl.Result refused(String... args) {
    Kubectl.Result r = kubectl.run(args);
    assertThat(r.exitCode()).as(r.toString()).isNotZero();
    return r;
  }

  @Test
  void commonMistakes_areRefused_withKubesFieldPaths() {
    kubectl.ok("create", "namespace", "v-mistakes");
    assertThat(refused("create", "deployment", "x", "--image=nginx", "--replicas=-2", "-n", "v-mistakes").stderr())
        .contains("Deployment.apps \"x\" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0");

    String pods = """
        apiVersion: v1
        kind: Pod
        metadata: {name: empty}
        spec: {containers: []}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: bad}
        spec: {containers: [{name: Bad_Name, image: ""}]}
        """;
    Kubectl.Result r = refused("create", "-f", kubectl.file("pods.yaml", pods).toString(), "-n", "v-mistakes");
    assertThat(r.stderr()).contains("Pod \"empty\" is invalid: spec.containers: Required value");
    assertThat(r.stderr()).contains("Pod \"bad\" is invalid: [spec.containers[0].name: Invalid value: \"Bad_Name\": "
        + "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'");
    assertThat(r.stderr()).contains("spec.containers[0].image: Required value");

    String services = """
        apiVersion: v1
        kind: Service
        metadata: {name: big}
        spec: {ports: [{port: 99999}]}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: twice}
        spec: {ports: [{name: http, port: 80}, {name: http, port: 81}]}
        """;
    r = refused("create", "-f", kubectl.file("services.yaml", services).toString(), "-n", "v-mistakes");
    assertThat(r.stderr()).contains("Service \"big\" is invalid: ")
        .contains("spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive");
    assertThat(r.stderr()).contains("Service \"twice\" is invalid: spec.ports[1].name: Duplicate value: \"http\"");

    String deployment = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: mismatch}
        spec:
          selector: {matchLabels: {app: a}}
          template:
            metadata: {labels: {app: b}}
            spec: {containers: [{name: c, image: nginx}]}
        """;
    assertThat(refused("create", "-f", kubectl.file("d.yaml", deployment).toString(), "-n", "v-mistakes").stderr())
        .contains("Deployment \"mismatch\" is invalid: spec.template.metadata.labels: Invalid value: "
            + "map[string]string{\"app\":\"b\"}: `selector` does not match template `labels`");

    assertThat(kubectl.ok("get", "pods,services,deployments", "-n", "v-mistakes", "-o", "name").stdout()).isBlank();
  }

  @Test
  void aPodsSpec_mayNotBePatched_beyondKubesList_butItsImageMay() {
    kubectl.ok("create", "namespace", "v-update");
    kubectl.ok("run", "p", "--image=nginx:1.27", "-n", "v-update");
    Kubectl.Result r = refused("patch", "pod", "p", "-n", "v-update", "--type=strategic",
        "-p", "{\"spec\":{\"containers\":[{\"name\":\"p\",\"env\":[{\"name\":\"A\",\"value\":\"b\"}]}]}}");
    assertThat(r.stderr()).contains("Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields other "
        + "than `spec.containers[*].image`");

    kubectl.ok("set", "image", "pod/p", "p=nginx:1.28", "-n", "v-update");
    assertThat(kubectl.ok("get", "pod", "p", "-n", "v-update", "-o", "jsonpath={.spec.containers[0].image}").stdout())
        .isEqualTo("nginx:1.28");
  }

  @Test
  void kubesWarnings_areShownByKubectl() {
    kubectl.ok("create", "namespace", "v-warn");
    String pod = """
        apiVersion: v1
        kind: Pod
        metadata: {name: old-labels}
        spec:
          nodeSelector: {beta.kubernetes.io/os: linux}
          containers: [{name: c, image: nginx}]
        """;
    Kubectl.Result r = kubectl.ok("create", "-f", kubectl.file("w.yaml", pod).toString(), "-n", "v-warn");
    assertThat(r.stderr()).contains("Warning: spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; "
        + "use \"kubernetes.io/os\" instead");
  }
}

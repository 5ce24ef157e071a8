package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) with validation on, as a user types it: {@code create}, {@code apply}
 * and {@code replace -f} validate through the server's OpenAPI v3 and {@code fieldValidation},
 * and {@code explain} reads the schemas.
 */
@EndToEnd
class KubectlOpenApiTest extends KubectlAgainstServer {

  private static String configMap(String name, String extra) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: %s
        data:
          color: blue
        %s""".formatted(name, extra);
  }

  private static String deployment(String name, String image, String containerExtra) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: %s
        spec:
          replicas: 1
          selector:
            matchLabels: {app: %s}
          template:
            metadata:
              labels: {app: %s}
            spec:
              containers:
              - name: main
                image: %s
                ports:
                - containerPort: 80
        %s""".formatted(name, name, name, image, containerExtra);
  }

  @Test
  void explain_podsSpecContainers_listsTheContainerFields() {
    Kubectl.Result r = kubectl.ok("explain", "pods.spec.containers");

    assertThat(r.stdout()).contains("KIND:       Pod").contains("FIELD: containers <[]Container>");
    assertThat(r.stdout()).containsPattern("(?m)^  image\\s+<string>");
    assertThat(r.stdout()).containsPattern("(?m)^  name\\s+<string>");
    assertThat(r.stdout()).containsPattern("(?m)^  ports\\s+<\\[\\]ContainerPort>");
  }

  @Test
  void explain_deploymentsSpec_listsTheSpecFields() {
    Kubectl.Result r = kubectl.ok("explain", "deployments.spec");

    assertThat(r.stdout()).contains("GROUP:      apps").contains("KIND:       Deployment");
    assertThat(r.stdout()).containsPattern("(?m)^  replicas\\s+<integer>");
    assertThat(r.stdout()).containsPattern("(?m)^  template\\s+<PodTemplateSpec>");
    assertThat(r.stdout()).containsPattern("(?m)^  strategy\\s+<DeploymentStrategy>");
  }

  @Test
  void createApplyReplace_withValidationOn_succeedForValidManifests() {
    api.createNamespace("openapi-valid");
    Path cm = kubectl.file("cm.yaml", configMap("settings", ""));
    Path deploy = kubectl.file("deploy.yaml", deployment("web", "nginx:1.27", ""));

    assertThat(kubectl.ok("create", "-f", cm.toString(), "-n", "openapi-valid").stdout())
        .contains("configmap/settings created");
    assertThat(kubectl.ok("apply", "-f", deploy.toString(), "-n", "openapi-valid").stdout())
        .contains("deployment.apps/web created");
    Path changed = kubectl.file("deploy2.yaml", deployment("web", "nginx:1.28", ""));
    assertThat(kubectl.ok("replace", "-f", changed.toString(), "-n", "openapi-valid").stdout())
        .contains("deployment.apps/web replaced");
    Path replaced = kubectl.file("cm2.yaml", configMap("settings", "immutable: false\n"));
    assertThat(kubectl.ok("replace", "-f", replaced.toString(), "-n", "openapi-valid").stdout())
        .contains("configmap/settings replaced");

    assertThat(kubectl.ok("get", "deployment", "web", "-n", "openapi-valid",
        "-o", "jsonpath={.spec.template.spec.containers[0].image}").stdout()).isEqualTo("nginx:1.28");
  }

  @Test
  void create_withAnUnknownField_failsWithKubesStrictDecodingError_andCreatesNothing() {
    api.createNamespace("openapi-unknown");
    Path bad = kubectl.file("bad.yaml", deployment("bad", "nginx:1.27", "        foo: bar\n"));

    Kubectl.Result r = kubectl.run("create", "-f", bad.toString(), "-n", "openapi-unknown");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("Error from server (BadRequest)")
        .contains("Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: "
            + "unknown field \"spec.template.spec.containers[0].foo\"");
    assertThat(kubectl.run("get", "deployment", "bad", "-n", "openapi-unknown").stderr()).contains("NotFound");
  }

  @Test
  void applyAndReplace_withAnUnknownField_failWithTheFieldNamed() {
    api.createNamespace("openapi-apply");
    Path good = kubectl.file("cm.yaml", configMap("cfg", ""));
    kubectl.ok("create", "-f", good.toString(), "-n", "openapi-apply");
    Path bad = kubectl.file("cm-bad.yaml", configMap("cfg", "colour: red\n"));

    Kubectl.Result applied = kubectl.run("apply", "-f", kubectl.file("cm-applied.yaml", configMap("cfg3",
        "colour: red\n")).toString(), "-n", "openapi-apply");
    Kubectl.Result replaced = kubectl.run("replace", "-f", bad.toString(), "-n", "openapi-apply");
    Kubectl.Result created = kubectl.run("create", "-f", kubectl.file("cm-new.yaml", configMap("cfg2", "colour: red\n"))
        .toString(), "-n", "openapi-apply");

    assertThat(applied.exitCode()).isNotZero();
    assertThat(applied.stderr()).contains("unknown field \"colour\"");
    assertThat(replaced.exitCode()).isNotZero();
    assertThat(replaced.stderr()).contains("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: "
        + "strict decoding error: unknown field \"colour\"");
    assertThat(created.exitCode()).isNotZero();
    assertThat(created.stderr()).contains("unknown field \"colour\"");
  }

  @Test
  void create_withValidateWarn_createsThePrunedObject_andPrintsTheWarning() {
    api.createNamespace("openapi-warn");
    Path bad = kubectl.file("cm-warn.yaml", configMap("warned", "colour: red\n"));

    Kubectl.Result r = kubectl.ok("create", "--validate=warn", "-f", bad.toString(), "-n", "openapi-warn");

    assertThat(r.stdout()).contains("configmap/warned created");
    assertThat(r.stderr()).contains("Warning: unknown field \"colour\"");
    assertThat(kubectl.ok("get", "configmap", "warned", "-n", "openapi-warn", "-o", "json").stdout())
        .contains("\"color\": \"blue\"").doesNotContain("colour");
  }

  @Test
  void listFile_validatesOnTheClientThroughOpenApiV2_andRoundTripsFromGetYaml() {
    api.createNamespace("openapi-list");
    // kubectl checks a kind: List file itself, against /openapi/v2 in gnostic protobuf
    Path bad = kubectl.file("list-bad.yaml", """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: ConfigMap
          metadata: {name: listed}
          colour: red
        - apiVersion: apps/v1
          kind: Deployment
          metadata: {name: listed}
          spec:
            replicas: "two"
            selector: {matchLabels: {app: listed}}
            template:
              metadata: {labels: {app: listed}}
              spec: {containers: [{name: main, image: nginx}]}
        """);

    Kubectl.Result rejected = kubectl.run("create", "-f", bad.toString(), "-n", "openapi-list");

    assertThat(rejected.exitCode()).isNotZero();
    assertThat(rejected.stderr())
        .contains("unknown field \"colour\" in io.k8s.api.core.v1.ConfigMap")
        .contains("invalid type for io.k8s.api.apps.v1.DeploymentSpec.replicas: got \"string\", expected \"integer\"");
    assertThat(kubectl.run("get", "configmap", "listed", "-n", "openapi-list").stderr()).contains("NotFound");

    kubectl.ok("create", "-f", kubectl.file("cm-a.yaml", configMap("a", "")).toString(), "-n", "openapi-list");
    kubectl.ok("create", "-f", kubectl.file("cm-b.yaml", configMap("b", "")).toString(), "-n", "openapi-list");
    String saved = kubectl.ok("get", "configmaps", "a", "b", "-n", "openapi-list", "-o", "yaml").stdout();
    assertThat(saved).contains("kind: List");
    kubectl.ok("delete", "configmaps", "a", "b", "-n", "openapi-list");

    Kubectl.Result restored = kubectl.ok("apply", "-f", kubectl.file("saved.yaml", saved).toString(),
        "-n", "openapi-list");

    assertThat(restored.stdout()).contains("configmap/a created").contains("configmap/b created");
    assertThat(kubectl.ok("get", "configmaps", "-n", "openapi-list", "-o", "name").stdout())
        .contains("configmap/a").contains("configmap/b");
  }

  @Test
  void explain_withTheOpenApiV2Output_readsTheV2Document() {
    Kubectl.Result r = kubectl.ok("explain", "deployments.spec.strategy", "--output=plaintext-openapiv2");

    assertThat(r.stdout()).contains("KIND:     Deployment").contains("RESOURCE: strategy <Object>")
        .contains("rollingUpdate").contains("type");
  }
}

package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) with CustomResourceDefinitions as stored objects: applied with
 * validation on, listed, refused with kube's messages when invalid, and their custom resources
 * served at once (the Kubectl*Crd*Test classes cover schemas, columns, versions and deletion).
 * That the CRD list answers also lets kubectl validate the create-only
 * kinds (the reviews) without {@code --validate=false}: it checks whether their kind is a CRD.
 */
@EndToEnd
class KubectlCrdTest extends KubectlAgainstServer {

  private static String crd(String name, String group, String plural) {
    return """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: %s}
        spec:
          group: %s
          scope: Namespaced
          names: {plural: %s, kind: Widget, shortNames: [wd]}
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec: {type: object, properties: {size: {type: integer}}}
        """.formatted(name, group, plural);
  }

  @Test
  void apply_storesTheDefinition_withKubesDefaults_andGetListsIt() {
    Path file = kubectl.file("crd.yaml", crd("widgets.example.com", "example.com", "widgets"));

    assertThat(kubectl.ok("apply", "-f", file.toString()).stdout())
        .contains("customresourcedefinition.apiextensions.k8s.io/widgets.example.com created");

    assertThat(kubectl.ok("get", "crd").names()).contains("widgets.example.com");
    assertThat(kubectl.ok("get", "crd", "widgets.example.com", "-o",
        "jsonpath={.spec.names.listKind} {.spec.names.singular} {.spec.conversion.strategy}").stdout())
        .isEqualTo("WidgetList widget None");
    assertThat(kubectl.ok("apply", "-f", file.toString()).stdout())
        .contains("customresourcedefinition.apiextensions.k8s.io/widgets.example.com unchanged");
  }

  @Test
  void anInvalidDefinition_isRefusedWithKubesMessage_andNothingIsStored() {
    Path file = kubectl.file("bad-crd.yaml", crd("gadgets.example.org", "example.com", "gadgets"));

    Kubectl.Result r = kubectl.run("create", "-f", file.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("The CustomResourceDefinition \"gadgets.example.org\" is invalid: "
        + "metadata.name: Invalid value: \"gadgets.example.org\": must be spec.names.plural+\".\"+spec.group");
    assertThat(kubectl.run("get", "crd", "gadgets.example.org").stderr()).contains("NotFound");
  }

  @Test
  void createOfAReview_validatesWithoutTurningValidationOff() {
    Path review = kubectl.file("sar.yaml", """
        apiVersion: authorization.k8s.io/v1
        kind: SubjectAccessReview
        spec:
          user: alice
          resourceAttributes: {verb: get, resource: pods, namespace: default}
        """);

    Kubectl.Result r = kubectl.ok("create", "-f", review.toString(), "-o", "jsonpath={.status.allowed}");

    assertThat(r.stdout()).isEqualTo("false");
  }

  @Test
  void fieldValidation_checksTheDefinition_butNotTheSchemaItCarries_andExplainDescribesIt() {
    Path preserving = kubectl.file("crd-preserve.yaml", crd("things.example.com", "example.com", "things").replace(
        "properties: {size: {type: integer}}}", "properties: {size: {type: integer}}, x-kubernetes-preserve-unknown-fields: true}"));
    Path unknown = kubectl.file("crd-unknown.yaml", crd("gizmos.example.com", "example.com", "gizmos")
        .replace("  scope: Namespaced\n", "  scope: Namespaced\n  colour: red\n"));

    assertThat(kubectl.ok("apply", "-f", preserving.toString()).stdout()).contains("things.example.com created");
    Kubectl.Result r = kubectl.run("apply", "-f", unknown.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("unknown field \"spec.colour\"");
    assertThat(kubectl.ok("explain", "customresourcedefinitions.spec.names").stdout())
        .contains("plural").contains("shortNames").contains("listKind");
  }

  @Test
  void anAppliedDefinition_isEstablished_andItsCustomResourcesAreServed() {
    Path definition = kubectl.file("sprockets.yaml", crd("sprockets.parts.example.io", "parts.example.io", "sprockets")
        .replace("kind: Widget, shortNames: [wd]", "kind: Sprocket, shortNames: [spr]"));
    kubectl.ok("apply", "-f", definition.toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/sprockets.parts.example.io");
    api.createNamespace("k-sprockets");
    Path sprocket = kubectl.file("sprocket.yaml", """
        apiVersion: parts.example.io/v1
        kind: Sprocket
        metadata: {name: s1}
        spec: {size: 3}
        """);

    assertThat(kubectl.ok("apply", "-f", sprocket.toString(), "-n", "k-sprockets").stdout())
        .contains("sprocket.parts.example.io/s1 created");
    assertThat(kubectl.ok("get", "spr", "-n", "k-sprockets").names()).containsExactly("s1");
    assertThat(kubectl.ok("get", "sprockets", "s1", "-n", "k-sprockets", "-o", "jsonpath={.spec.size}").stdout())
        .isEqualTo("3");
    assertThat(kubectl.ok("patch", "sprocket", "s1", "-n", "k-sprockets", "--type=merge", "-p",
        "{\"spec\":{\"size\":4}}").stdout()).contains("sprocket.parts.example.io/s1 patched");
    assertThat(kubectl.ok("api-resources", "--api-group=parts.example.io").stdout()).contains("sprockets")
        .contains("spr").contains("Sprocket");
    assertThat(kubectl.ok("get", "crd", "sprockets.parts.example.io", "-o",
        "jsonpath={.status.acceptedNames.kind} {.status.storedVersions}").stdout()).isEqualTo("Sprocket [\"v1\"]");
    assertThat(kubectl.ok("delete", "sprocket", "s1", "-n", "k-sprockets").stdout())
        .contains("sprocket.parts.example.io \"s1\" deleted");
    assertThat(kubectl.ok("get", "sprockets", "-n", "k-sprockets").stderr()).contains("No resources found");

    kubectl.ok("delete", "crd", "sprockets.parts.example.io");
    // kubectl may still have the resource in its discovery cache: then the server answers 404 itself
    Await.until("the custom resource is no longer served", SERVER_WORK, () -> {
      String err = kubectl.run("get", "sprockets", "-n", "k-sprockets").stderr();
      return err.contains("the server doesn't have a resource type \"sprockets\"")
          || err.contains("the server could not find the requested resource");
    });
  }

  @Test
  void deletingANamespace_deletesTheCustomResourcesInIt() {
    Path definition = kubectl.file("gears.yaml", crd("gears.parts.example.io", "parts.example.io", "gears")
        .replace("kind: Widget, shortNames: [wd]", "kind: Gear"));
    kubectl.ok("apply", "-f", definition.toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/gears.parts.example.io");
    api.createNamespace("k-gears");
    kubectl.ok("apply", "-n", "k-gears", "-f", kubectl.file("gear.yaml", """
        apiVersion: parts.example.io/v1
        kind: Gear
        metadata: {name: g1}
        """).toString());

    kubectl.ok("delete", "namespace", "k-gears");

    assertThat(kubectl.run("get", "namespace", "k-gears").stderr()).contains("NotFound");
    api.createNamespace("k-gears");
    assertThat(kubectl.ok("get", "gears", "-n", "k-gears").stderr()).as("the old gear went with its namespace")
        .contains("No resources found");
  }

}

package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) with CustomResourceDefinitions as stored objects: applied with
 * validation on, listed, refused with kube's messages when invalid. Their custom resources are
 * not served yet (step 6). That the CRD list answers also lets kubectl validate the create-only
 * kinds (the reviews) without {@code --validate=false}: it checks whether their kind is a CRD.
 */
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
}

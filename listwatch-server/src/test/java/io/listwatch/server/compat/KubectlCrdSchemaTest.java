package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) writing custom resources that a schema governs: a bad field
 * rejected with kube's message, a default filled in, an unknown field pruned (and refused
 * under {@code --validate=strict}), the status subresource and the generation, and
 * {@code kubectl apply --server-side} with a conflict between two field managers (appliers, or
 * an applier and {@code kubectl create}) and {@code --force-conflicts}; a definition with a non-structural schema refused.
 */
@EndToEnd
class KubectlCrdSchemaTest extends KubectlAgainstServer {

  private static final String NS = "k-crd-schema";

  @BeforeAll
  static void defineCronTabs() {
    Path crd = kubectl.file("crontabs.yaml", """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: crontabs.stable.example.com}
        spec:
          group: stable.example.com
          scope: Namespaced
          names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct]}
          versions:
          - name: v1
            served: true
            storage: true
            subresources: {status: {}}
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      cronSpec: {type: string}
                      image: {type: string}
                      replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
                    x-kubernetes-validations:
                    - {rule: "!has(self.image) || self.image != 'forbidden'", message: "this image is not allowed"}
                  status:
                    type: object
                    properties:
                      replicas: {type: integer}
        """);
    kubectl.ok("apply", "-f", crd.toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/crontabs.stable.example.com");
    api.createNamespace(NS);
  }

  private static Path cronTab(String file, String name, String spec) {
    return kubectl.file(file, """
        apiVersion: stable.example.com/v1
        kind: CronTab
        metadata: {name: %s, namespace: %s}
        spec: %s
        """.formatted(name, NS, spec));
  }

  @Test
  void create_aBadField_isRejectedWithKubesMessage() {
    Path file = cronTab("bad.yaml", "bad", "{cronSpec: '* * * * */5', replicas: 20}");

    Kubectl.Result r = kubectl.run("create", "-f", file.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("The CronTab \"bad\" is invalid: spec.replicas: Invalid value: 20: "
        + "spec.replicas in body should be less than or equal to 10");
    assertThat(kubectl.run("get", "crontab", "bad", "-n", NS).stderr()).contains("NotFound");
  }

  @Test
  void create_aCelRuleRejectsTheWrite() {
    Kubectl.Result r = kubectl.run("create", "-f", cronTab("cel.yaml", "cel", "{image: forbidden}").toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("The CronTab \"cel\" is invalid: spec: Invalid value: \"object\": "
        + "this image is not allowed");
  }

  @Test
  void create_fillsInTheDefault_andPrunesAnUnknownField_whichStrictValidationRefuses() {
    Path unknown = cronTab("unknown.yaml", "unknown", "{cronSpec: '* * * * */5', colour: red}");

    Kubectl.Result strict = kubectl.run("create", "--validate=strict", "-f", unknown.toString());
    assertThat(strict.exitCode()).isNotZero();
    assertThat(strict.stderr()).contains("strict decoding error: unknown field \"spec.colour\"");

    Kubectl.Result warned = kubectl.ok("create", "--validate=warn", "-f", unknown.toString());
    assertThat(warned.stderr()).contains("unknown field \"spec.colour\"");
    assertThat(kubectl.ok("get", "ct", "unknown", "-n", NS, "-o", "jsonpath={.spec}").stdout())
        .isEqualTo("{\"cronSpec\":\"* * * * */5\",\"replicas\":1}");
  }

  @Test
  void statusSubresource_andGeneration() {
    kubectl.ok("create", "-f", cronTab("gen.yaml", "gen", "{replicas: 2}").toString());

    kubectl.ok("patch", "ct", "gen", "-n", NS, "--subresource=status", "--type=merge", "-p",
        "{\"status\":{\"replicas\":2},\"spec\":{\"replicas\":9}}");
    kubectl.ok("patch", "ct", "gen", "-n", NS, "--type=merge", "-p", "{\"status\":{\"replicas\":7}}");
    assertThat(kubectl.ok("get", "ct", "gen", "-n", NS, "-o",
        "jsonpath={.spec.replicas} {.status.replicas} {.metadata.generation}").stdout()).isEqualTo("2 2 1");

    kubectl.ok("label", "ct", "gen", "-n", NS, "team=a");
    kubectl.ok("patch", "ct", "gen", "-n", NS, "--type=merge", "-p", "{\"spec\":{\"replicas\":3}}");
    assertThat(kubectl.ok("get", "ct", "gen", "-n", NS, "-o", "jsonpath={.metadata.generation}").stdout())
        .isEqualTo("2");
  }

  @Test
  void applyServerSide_conflictsBetweenManagers_andForceConflictsTakesOwnership() {
    Path first = cronTab("applied-a.yaml", "applied", "{image: nginx, replicas: 3}");
    Path second = cronTab("applied-b.yaml", "applied", "{replicas: 5}");

    assertThat(kubectl.ok("apply", "--server-side", "--field-manager=alice", "-f", first.toString()).stdout())
        .contains("crontab.stable.example.com/applied serverside-applied");
    Kubectl.Result conflict = kubectl.run("apply", "--server-side", "--field-manager=bob", "-f", second.toString());
    assertThat(conflict.exitCode()).isNotZero();
    assertThat(conflict.stderr()).contains("Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas");

    kubectl.ok("apply", "--server-side", "--field-manager=bob", "--force-conflicts", "-f", second.toString());
    assertThat(kubectl.ok("get", "ct", "applied", "-n", NS, "-o",
        "jsonpath={.spec.image} {.spec.replicas} {.metadata.managedFields[*].manager}").stdout())
        .isEqualTo("nginx 5 alice bob");

    Kubectl.Result invalid = kubectl.run("apply", "--server-side", "--field-manager=bob", "-f",
        cronTab("applied-c.yaml", "applied", "{replicas: 50}").toString());
    assertThat(invalid.stderr()).contains("spec.replicas: Invalid value: 50");
  }

  @Test
  void applyServerSide_conflictsWithTheFieldsOfAnImperativeCreate() {
    kubectl.ok("create", "-f", cronTab("imperative.yaml", "imperative", "{image: nginx}").toString());
    assertThat(kubectl.ok("get", "ct", "imperative", "-n", NS, "-o",
        "jsonpath={.metadata.managedFields[0].manager} {.metadata.managedFields[0].operation}").stdout())
        .isEqualTo("kubectl-create Update");

    Kubectl.Result conflict = kubectl.run("apply", "--server-side", "-f",
        cronTab("imperative-apply.yaml", "imperative", "{image: httpd}").toString());

    assertThat(conflict.exitCode()).isNotZero();
    assertThat(conflict.stderr()).contains("conflict with \"kubectl-create\" using stable.example.com/v1: "
        + ".spec.image");
  }

  @Test
  void aNonStructuralSchema_isRefused() {
    Path crd = kubectl.file("loose.yaml", """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: looses.stable.example.com}
        spec:
          group: stable.example.com
          scope: Namespaced
          names: {plural: looses, kind: Loose}
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec: {properties: {size: {type: integer}}}
        """);

    Kubectl.Result r = kubectl.run("create", "-f", crd.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("The CustomResourceDefinition \"looses.stable.example.com\" is invalid: "
        + "spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: "
        + "must not be empty for specified object fields");
  }
}

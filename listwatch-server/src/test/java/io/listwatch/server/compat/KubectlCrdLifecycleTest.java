package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) over a CustomResourceDefinition's versions and life: an object
 * written through one version and read through another, a deprecated version's warning,
 * a name conflict in the definition's status, and {@code kubectl delete crd} taking the
 * custom resources with it.
 */
@EndToEnd
class KubectlCrdLifecycleTest extends KubectlAgainstServer {

  private static final String TWO_VERSIONS = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: kettles.kitchen.example.io}
      spec:
        group: kitchen.example.io
        scope: Namespaced
        names: {plural: kettles, singular: kettle, kind: Kettle}
        versions:
        - name: v1alpha1
          served: true
          storage: false
          deprecated: true
          deprecationWarning: "kitchen.example.io/v1alpha1 Kettle is going away: use v1"
          schema:
            openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;

  @Test
  void anObjectAppliedThroughTheDeprecatedVersion_warns_andReadsThroughTheOther() {
    kubectl.ok("apply", "-f", kubectl.file("kettles.yaml", TWO_VERSIONS).toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/kettles.kitchen.example.io");
    api.createNamespace("k-kettles");
    Path old = kubectl.file("kettle.yaml", """
        apiVersion: kitchen.example.io/v1alpha1
        kind: Kettle
        metadata: {name: k1}
        spec: {litres: 2}
        """);

    Kubectl.Result applied = kubectl.ok("apply", "-n", "k-kettles", "-f", old.toString());

    assertThat(applied.stderr()).contains("Warning: kitchen.example.io/v1alpha1 Kettle is going away: use v1");
    assertThat(applied.stdout()).contains("kettle.kitchen.example.io/k1 created");
    assertThat(kubectl.ok("get", "kettles.v1.kitchen.example.io", "k1", "-n", "k-kettles", "-o",
        "jsonpath={.apiVersion} {.spec.litres}").stdout()).isEqualTo("kitchen.example.io/v1 2");
    Kubectl.Result throughOld = kubectl.ok("get", "kettles.v1alpha1.kitchen.example.io", "k1", "-n", "k-kettles",
        "-o", "jsonpath={.apiVersion}");
    assertThat(throughOld.stdout()).isEqualTo("kitchen.example.io/v1alpha1");
    assertThat(throughOld.stderr()).contains("Warning: kitchen.example.io/v1alpha1 Kettle is going away");
    assertThat(kubectl.ok("get", "crd", "kettles.kitchen.example.io", "-o",
        "jsonpath={.status.storedVersions}").stdout()).isEqualTo("[\"v1\"]");
  }

  @Test
  void aShortNameAnotherDefinitionHas_isReportedInNamesAccepted() {
    kubectl.ok("apply", "-f", kubectl.file("pans.yaml", """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: pans.cookware.example.io}
        spec:
          group: cookware.example.io
          scope: Namespaced
          names: {plural: pans, kind: Pan, shortNames: [pn]}
          versions:
          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
        """).toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/pans.cookware.example.io");

    kubectl.ok("apply", "-f", kubectl.file("pots.yaml", """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: pots.cookware.example.io}
        spec:
          group: cookware.example.io
          scope: Namespaced
          names: {plural: pots, kind: Pot, shortNames: [pn]}
          versions:
          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
        """).toString());

    kubectl.ok("wait", "--for=condition=namesaccepted=false", "--timeout=30s", "crd/pots.cookware.example.io");
    assertThat(kubectl.ok("get", "crd", "pots.cookware.example.io", "-o",
        "jsonpath={.status.conditions[?(@.type==\"NamesAccepted\")].reason}: "
            + "{.status.conditions[?(@.type==\"NamesAccepted\")].message}").stdout())
        .isEqualTo("ShortNamesConflict: \"pn\" is already in use");
  }

  @Test
  void deleteCrd_takesItsCustomResourcesWithIt() {
    Path definition = kubectl.file("trays.yaml", """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: trays.kitchen.example.io}
        spec:
          group: kitchen.example.io
          scope: Namespaced
          names: {plural: trays, kind: Tray}
          versions:
          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
        """);
    kubectl.ok("apply", "-f", definition.toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/trays.kitchen.example.io");
    api.createNamespace("k-trays");
    Path trays = kubectl.file("trays-objects.yaml", """
        apiVersion: kitchen.example.io/v1
        kind: Tray
        metadata: {name: t1}
        ---
        apiVersion: kitchen.example.io/v1
        kind: Tray
        metadata: {name: t2}
        """);
    kubectl.ok("apply", "-n", "k-trays", "-f", trays.toString());
    assertThat(kubectl.ok("get", "trays", "-n", "k-trays").names()).containsExactlyInAnyOrder("t1", "t2");

    assertThat(kubectl.ok("delete", "crd", "trays.kitchen.example.io").stdout())
        .contains("customresourcedefinition.apiextensions.k8s.io \"trays.kitchen.example.io\" deleted");

    assertThat(kubectl.run("get", "crd", "trays.kitchen.example.io").stderr()).contains("NotFound");
    kubectl.ok("apply", "-f", definition.toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/trays.kitchen.example.io");
    Await.until("trays served again", SERVER_WORK, () -> kubectl.run("get", "trays", "-n", "k-trays").exitCode() == 0);
    assertThat(kubectl.ok("get", "trays", "-n", "k-trays").stderr()).as("the old trays went with their definition")
        .contains("No resources found");
  }
}

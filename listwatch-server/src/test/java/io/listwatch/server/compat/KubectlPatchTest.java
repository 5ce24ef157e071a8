package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl (1.32, from PATH) changing objects in place: {@code patch} with each patch
 * type, client-side {@code apply} (the last-applied annotation and a three-way strategic merge
 * patch), {@code edit}, {@code label}, {@code annotate} and {@code diff}. Each test works in a namespace of
 * its own on the class's shared server.
 *
 * <p>kubectl validates {@code create -f}, {@code apply -f} and {@code edit} with the server
 * ({@code fieldValidation}), as against kube.
 */
@EndToEnd
class KubectlPatchTest extends KubectlAgainstServer {

  private static String deploymentYaml(String appImage, String extraLabel) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          labels:
            app: web
        %s
        spec:
          replicas: 2
          selector:
            matchLabels:
              app: web
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
              - name: app
                image: %s
                env:
                - name: MODE
                  value: production
              - name: sidecar
                image: busybox:1.36
        """.formatted(extraLabel.isEmpty() ? "" : "    " + extraLabel, appImage);
  }

  private static String images(String namespace) {
    return kubectl.ok("get", "deployment", "web", "-n", namespace,
        "-o", "jsonpath={.spec.template.spec.containers[*].image}").stdout();
  }

  private static void createDeployment(String namespace) {
    api.createNamespace(namespace);
    kubectl.ok("create", "-f", kubectl.file("web.yaml", deploymentYaml("nginx:1.26", "")).toString(),
        "-n", namespace);
  }

  @Test
  void patchStrategic_changesOneContainersImage_andKeepsTheOtherContainer() {
    createDeployment("kubectl-patch-smp");

    Kubectl.Result r = kubectl.ok("patch", "deployment", "web", "-n", "kubectl-patch-smp", "--type=strategic",
        "-p", "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.27\"}]}}}}");

    assertThat(r.stdout().strip()).isEqualTo("deployment.apps/web patched");
    assertThat(images("kubectl-patch-smp")).isEqualTo("nginx:1.27 busybox:1.36");
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "kubectl-patch-smp",
        "-o", "jsonpath={.spec.template.spec.containers[0].env[0].value}").stdout()).isEqualTo("production");
  }

  @Test
  void patchMerge_replacesTheContainerList_asJsonMergePatchDoes() {
    createDeployment("kubectl-patch-merge");

    Kubectl.Result r = kubectl.ok("patch", "deployment", "web", "-n", "kubectl-patch-merge", "--type=merge",
        "-p", "{\"spec\":{\"replicas\":3,\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.27\"}]}}}}");

    assertThat(r.stdout().strip()).isEqualTo("deployment.apps/web patched");
    assertThat(images("kubectl-patch-merge")).isEqualTo("nginx:1.27");
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "kubectl-patch-merge", "-o", "jsonpath={.spec.replicas}")
        .stdout()).isEqualTo("3");
  }

  @Test
  void patchJson_withTestAndMove_applies_andAFailedTestChangesNothing() {
    createDeployment("kubectl-patch-json");

    Kubectl.Result r = kubectl.ok("patch", "deployment", "web", "-n", "kubectl-patch-json", "--type=json", "-p", """
        [{"op":"test","path":"/spec/template/spec/containers/1/name","value":"sidecar"},
         {"op":"move","from":"/spec/template/spec/containers/1","path":"/spec/template/spec/containers/0"},
         {"op":"replace","path":"/spec/replicas","value":4}]""");
    Kubectl.Result failed = kubectl.run("patch", "deployment", "web", "-n", "kubectl-patch-json", "--type=json",
        "-p", "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":9},"
            + "{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":1}]");

    assertThat(r.stdout().strip()).isEqualTo("deployment.apps/web patched");
    assertThat(images("kubectl-patch-json")).isEqualTo("busybox:1.36 nginx:1.26");
    assertThat(failed.exitCode()).as("%s", failed).isNotZero();
    assertThat(failed.stderr()).as("%s", failed).contains("The request is invalid")
        .contains("testing value /spec/replicas failed");
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "kubectl-patch-json", "-o", "jsonpath={.spec.replicas}")
        .stdout()).isEqualTo("4");
  }

  @Test
  void apply_createsThenConfiguresThenIsUnchanged_keepingChangesMadeByOthers() {
    api.createNamespace("kubectl-apply");
    Path v1 = kubectl.file("web-v1.yaml", deploymentYaml("nginx:1.26", "tier: front"));
    Path v2 = kubectl.file("web-v2.yaml", deploymentYaml("nginx:1.27", ""));

    Kubectl.Result created = kubectl.ok("apply", "-f", v1.toString(), "-n", "kubectl-apply");
    kubectl.ok("annotate", "deployment", "web", "owner=ops", "-n", "kubectl-apply");
    Kubectl.Result configured = kubectl.ok("apply", "-f", v2.toString(), "-n", "kubectl-apply");
    Kubectl.Result again = kubectl.ok("apply", "-f", v2.toString(), "-n", "kubectl-apply");

    assertThat(created.stdout().strip()).isEqualTo("deployment.apps/web created");
    assertThat(configured.stdout().strip()).isEqualTo("deployment.apps/web configured");
    assertThat(again.stdout().strip()).isEqualTo("deployment.apps/web unchanged");
    assertThat(images("kubectl-apply")).isEqualTo("nginx:1.27 busybox:1.36");
    String labels = kubectl.ok("get", "deployment", "web", "-n", "kubectl-apply", "-o", "jsonpath={.metadata.labels}")
        .stdout();
    assertThat(labels).as("the label dropped from the file is removed").contains("\"app\":\"web\"")
        .doesNotContain("tier");
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "kubectl-apply",
        "-o", "jsonpath={.metadata.annotations.owner}").stdout()).as("a change the file never named stays")
        .isEqualTo("ops");
  }

  @Test
  void apply_removingAContainerFromTheFile_removesItFromTheObject() {
    api.createNamespace("kubectl-apply-remove");
    kubectl.ok("apply", "-f", kubectl.file("web.yaml", deploymentYaml("nginx:1.26", "")).toString(),
        "-n", "kubectl-apply-remove");
    String withoutSidecar = deploymentYaml("nginx:1.26", "").replace("""
              - name: sidecar
                image: busybox:1.36
        """, "");

    kubectl.ok("apply", "-f", kubectl.file("web-one.yaml", withoutSidecar).toString(),
        "-n", "kubectl-apply-remove");

    assertThat(images("kubectl-apply-remove")).isEqualTo("nginx:1.26");
  }

  @Test
  void edit_withAnEditorThatChangesTheImage_patchesTheDeployment() {
    createDeployment("kubectl-edit");

    // kubectl runs the editor on a temporary YAML file and sends the difference as a strategic merge patch
    Kubectl.Result r = kubectl.runWithEnv(Map.of("KUBE_EDITOR", "sed -i s/nginx:1.26/nginx:1.27/"),
        "edit", "deployment", "web", "-n", "kubectl-edit");

    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stdout().strip()).isEqualTo("deployment.apps/web edited");
    assertThat(images("kubectl-edit")).isEqualTo("nginx:1.27 busybox:1.36");
  }

  @Test
  void labelAndAnnotate_addOverwriteAndRemove() {
    createDeployment("kubectl-label");
    String ns = "kubectl-label";

    assertThat(kubectl.ok("label", "deployment", "web", "tier=front", "-n", ns).stdout().strip())
        .isEqualTo("deployment.apps/web labeled");
    assertThat(kubectl.ok("label", "deployment", "web", "tier=back", "--overwrite", "-n", ns).stdout().strip())
        .isEqualTo("deployment.apps/web labeled");
    assertThat(kubectl.ok("get", "deployment", "-l", "tier=back", "-n", ns).names()).containsExactly("web");
    assertThat(kubectl.ok("label", "deployment", "web", "tier-", "-n", ns).stdout().strip())
        .isEqualTo("deployment.apps/web unlabeled");
    assertThat(kubectl.ok("annotate", "deployment", "web", "note=hello", "-n", ns).stdout().strip())
        .isEqualTo("deployment.apps/web annotated");
    assertThat(kubectl.ok("get", "deployment", "web", "-n", ns, "-o", "jsonpath={.metadata.annotations.note}")
        .stdout()).isEqualTo("hello");
    Kubectl.Result refused = kubectl.run("label", "deployment", "web", "app=other", "-n", ns);
    assertThat(refused.exitCode()).as("%s", refused).isNotZero();
    assertThat(refused.stderr()).contains("--overwrite is false");
  }

  @Test
  void diff_showsTheChangeApplyWouldMake_andStoresNothing() {
    api.createNamespace("kubectl-diff");
    kubectl.ok("apply", "-f", kubectl.file("web.yaml", deploymentYaml("nginx:1.26", "")).toString(),
        "-n", "kubectl-diff");

    Kubectl.Result diff = kubectl.run("diff", "-f", kubectl.file("web-v2.yaml", deploymentYaml("nginx:1.27", ""))
        .toString(), "-n", "kubectl-diff");

    assertThat(diff.exitCode()).as("kubectl diff exits 1 when there are differences: %s", diff).isEqualTo(1);
    assertThat(diff.stdout()).contains("-        image: nginx:1.26").contains("+        image: nginx:1.27");
    assertThat(images("kubectl-diff")).isEqualTo("nginx:1.26 busybox:1.36");
  }

  @Test
  void applyServerSide_createsUpdates_conflictsWithAnotherManager_andForceTakesOver() {
    api.createNamespace("k-ssa");
    Path v1 = kubectl.file("ssa-1.yaml", configMapYaml("ssa", "color: blue"));
    Path v2 = kubectl.file("ssa-2.yaml", configMapYaml("ssa", "color: blue\n  size: large"));
    Path other = kubectl.file("ssa-other.yaml", configMapYaml("ssa", "color: red"));

    assertThat(kubectl.ok("apply", "--server-side", "-f", v1.toString(), "-n", "k-ssa").stdout())
        .contains("configmap/ssa serverside-applied");
    assertThat(kubectl.ok("apply", "--server-side", "-f", v2.toString(), "-n", "k-ssa").stdout())
        .contains("configmap/ssa serverside-applied");
    Kubectl.Result conflict = kubectl.run("apply", "--server-side", "--field-manager=other", "-f", other.toString(),
        "-n", "k-ssa");
    Kubectl.Result forced = kubectl.ok("apply", "--server-side", "--field-manager=other", "--force-conflicts",
        "-f", other.toString(), "-n", "k-ssa");

    assertThat(conflict.exitCode()).isNotZero();
    assertThat(conflict.stderr()).contains("Apply failed with 1 conflict: conflict with \"kubectl\": .data.color");
    assertThat(forced.stdout()).contains("configmap/ssa serverside-applied");
    assertThat(kubectl.ok("get", "configmap", "ssa", "-n", "k-ssa", "-o", "jsonpath={.data.color} {.data.size}")
        .stdout()).isEqualTo("red large");
    assertThat(kubectl.ok("get", "configmap", "ssa", "-n", "k-ssa", "--show-managed-fields", "-o",
        "jsonpath={.metadata.managedFields[*].manager}").stdout()).isEqualTo("kubectl other");
  }

  private static String configMapYaml(String name, String data) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  " + data + "\n";
  }
}

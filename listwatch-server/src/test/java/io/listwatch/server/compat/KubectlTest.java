package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl (1.32, from PATH) against the server: what a user typing kubectl sees.
 * Each test works in a namespace of its own on the class's shared server. Skipped when there
 * is no kubectl on PATH.
 */
@EndToEnd
class KubectlTest extends KubectlAgainstServer {

  /** How long to wait for kubectl to print a line or to exit after the server did its part. */
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static String podYaml(String name, String app, String nodeName) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          labels:
            app: %s
        spec:
          nodeName: %s
          containers:
          - name: main
            image: nginx:1.27
        """.formatted(name, app, nodeName);
  }

  /** Creates {@code namespace} (over HTTP) and, with kubectl, the pods {@code web} (app=web, node-1). */
  private static void namespaceWithWebPod(String namespace) {
    api.createNamespace(namespace);
    Path manifest = kubectl.file("web.yaml", podYaml("web", "web", "node-1"));
    kubectl.ok("create", "-f", manifest.toString(), "-n", namespace);
  }

  @Test
  void getNamespaces_listsTheNamespacesKubeAlwaysHas() {
    Kubectl.Result r = kubectl.ok("get", "namespaces");

    assertThat(r.lines().getFirst()).startsWith("NAME");
    assertThat(r.names()).contains("default", "kube-system", "kube-public", "kube-node-lease");
  }

  @Test
  void createFromFile_thenGetPods_showsThePod() {
    api.createNamespace("kubectl-create");
    Path manifest = kubectl.file("web.yaml", podYaml("web", "web", "node-1"));

    Kubectl.Result created = kubectl.ok("create", "-f", manifest.toString(),
        "-n", "kubectl-create");
    Kubectl.Result got = kubectl.ok("get", "pods", "-n", "kubectl-create");

    assertThat(created.stdout().strip()).isEqualTo("pod/web created");
    assertThat(got.lines().getFirst()).startsWith("NAME");
    assertThat(got.names()).containsExactly("web");
  }

  @Test
  void getPods_withLabelAndFieldSelectors_showsOnlyMatchingPods() {
    namespaceWithWebPod("kubectl-selectors");
    kubectl.ok("create", "-f", kubectl.file("db.yaml", podYaml("db", "db", "node-2")).toString(),
        "-n", "kubectl-selectors");

    assertThat(kubectl.ok("get", "pods", "-n", "kubectl-selectors").names()).containsExactlyInAnyOrder("web", "db");
    assertThat(kubectl.ok("get", "pods", "-l", "app=web", "-n", "kubectl-selectors").names())
        .containsExactly("web");
    assertThat(kubectl.ok("get", "pods", "-l", "app in (db, cache)", "-n", "kubectl-selectors").names())
        .containsExactly("db");
    assertThat(kubectl.ok("get", "pods", "--field-selector", "spec.nodeName=node-1", "-n", "kubectl-selectors")
        .names()).containsExactly("web");
    assertThat(kubectl.ok("get", "pods", "--field-selector", "spec.nodeName!=node-1", "-n", "kubectl-selectors")
        .names()).containsExactly("db");
  }

  @Test
  void getPods_withNonMatchingSelector_printsNoResourcesFound() {
    namespaceWithWebPod("kubectl-nomatch");

    Kubectl.Result byLabel = kubectl.ok("get", "pods", "-l", "app=nope", "-n", "kubectl-nomatch");
    Kubectl.Result byField = kubectl.ok("get", "pods", "--field-selector", "spec.nodeName=node-9",
        "-n", "kubectl-nomatch");

    for (Kubectl.Result r : List.of(byLabel, byField)) {
      assertThat(r.stdout()).as("%s", r).isBlank();
      assertThat(r.stderr()).as("%s", r).contains("No resources found in kubectl-nomatch namespace.");
    }
  }

  @Test
  void getPods_withUnknownFieldSelector_failsWithTheServersMessage() {
    api.createNamespace("kubectl-badfield");

    Kubectl.Result r = kubectl.run("get", "pods", "--field-selector", "foo=bar", "-n", "kubectl-badfield");

    assertThat(r.exitCode()).as("%s", r).isNotZero();
    assertThat(r.stderr()).as("%s", r)
        .contains("Error from server (BadRequest)")
        .contains("\"foo\" is not a known field selector");
  }

  @Test
  void getPodsWatch_printsARowForEveryChange() {
    namespaceWithWebPod("kubectl-watch");

    try (Kubectl.Background watch = kubectl.start("get", "pods", "-w", "-L", "tier", "-n", "kubectl-watch")) {
      assertThat(watch.nextLine(WAIT)).startsWith("NAME").contains("TIER");
      String initial = watch.nextLine(WAIT);
      assertThat(initial).startsWith("web ").doesNotContain("frontend");

      // kubectl watches from the list's resourceVersion, so a change made now is never missed
      kubectl.ok("label", "pod", "web", "tier=frontend", "-n", "kubectl-watch");
      assertThat(watch.nextLine(WAIT)).as("the row after the initial one (no duplicate of it)")
          .startsWith("web ").contains("frontend");

      api.createPod("kubectl-watch", "web2", "\"labels\":{\"tier\":\"backend\"}", "node-1");
      assertThat(watch.nextLine(WAIT)).startsWith("web2 ").contains("backend");

      api.mergePatch("/api/v1/namespaces/kubectl-watch/pods/web2", "{\"metadata\":{\"labels\":{\"tier\":\"cache\"}}}");
      assertThat(watch.nextLine(WAIT)).startsWith("web2 ").contains("cache");
    }
  }

  @Test
  void getSinglePodWatch_printsTheCurrentStateOnce_thenEachChange() {
    namespaceWithWebPod("kubectl-watch-one");
    api.createPod("kubectl-watch-one", "other", "", "node-1");

    // -v=6 logs each request once its response head has arrived: the line for the watch
    // (resourceVersion=0, fieldSelector metadata.name=web) tells that kubectl is watching.
    try (Kubectl.Background watch = kubectl.start("get", "pod", "web", "-w", "-L", "tier", "-v=6",
        "-n", "kubectl-watch-one")) {
      assertThat(watch.nextLine(WAIT)).startsWith("NAME").contains("TIER");
      assertThat(watch.nextLine(WAIT)).startsWith("web ").doesNotContain("frontend");
      watch.awaitStderr(l -> l.contains("watch=true") && l.contains("metadata.name%3Dweb"),
          "logging the single-object watch request", WAIT);

      // kubectl drops the watch's first event, expecting it to be the synthetic ADDED of the
      // current state: the next row printed must be the change below, not the initial state again
      kubectl.ok("label", "pod", "web", "tier=frontend", "-n", "kubectl-watch-one");
      assertThat(watch.nextLine(WAIT)).as("the row after the initial one").startsWith("web ").contains("frontend");

      api.mergePatch("/api/v1/namespaces/kubectl-watch-one/pods/other", "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}");
      kubectl.ok("label", "pod", "web", "tier=backend", "--overwrite", "-n", "kubectl-watch-one");
      assertThat(watch.nextLine(WAIT)).as("only pod web is watched").startsWith("web ").contains("backend");
    }
  }

  @Test
  void deletePod_succeeds_andTheGetThatFollowsShowsItGone() {
    api.createNamespace("kubectl-delete");
    api.createPod("kubectl-delete", "web", "", ""); // on no node: deleted without a grace period, as in kube

    Kubectl.Background delete = kubectl.start("delete", "pod", "web", "-n", "kubectl-delete");
    try (delete) {
      assertThat(delete.awaitExit(WAIT)).as("exit code of kubectl delete; stderr:%n%s", delete.stderrText()).isZero();
      assertThat(delete.drainStdout()).containsExactly("pod \"web\" deleted");
    }

    Kubectl.Result list = kubectl.ok("get", "pods", "-n", "kubectl-delete");
    assertThat(list.stdout()).isBlank();
    assertThat(list.stderr()).contains("No resources found in kubectl-delete namespace.");
    Kubectl.Result get = kubectl.run("get", "pod", "web", "-n", "kubectl-delete");
    assertThat(get.exitCode()).as("%s", get).isNotZero();
    assertThat(get.stderr()).contains("Error from server (NotFound): pods \"web\" not found");
  }

  @Test
  void waitForDelete_watchesByName_andReturnsWhenThePodIsDeleted() {
    namespaceWithWebPod("kubectl-wait");

    try (Kubectl.Background wait = kubectl.start("wait", "--for=delete", "pod/web", "--timeout=60s", "-v=6",
        "-n", "kubectl-wait")) {
      // kubectl lists and watches with fieldSelector=metadata.name=web from the list's RV
      wait.awaitStderr(l -> l.contains("watch=true") && l.contains("fieldSelector=metadata.name%3Dweb"),
          "logging the watch by name", WAIT);

      // as a node agent confirms it: the pod is on node-1, which would otherwise give it 30 s of grace
      api.expect(200, "DELETE", "/api/v1/namespaces/kubectl-wait/pods/web?gracePeriodSeconds=0", null, null);

      assertThat(wait.awaitExit(WAIT)).as("exit code of kubectl wait; stderr:%n%s", wait.stderrText()).isZero();
      assertThat(wait.drainStdout()).containsExactly("pod/web condition met");
    }
  }

  @Test
  void deletePod_withFinalizer_waitsByListAndWatch_untilTheFinalizerIsRemoved() {
    api.createNamespace("kubectl-finalizer");
    api.createPod("kubectl-finalizer", "web", "\"finalizers\":[\"example.com/hold\"]", ""); // no grace period

    try (Kubectl.Background delete = kubectl.start("delete", "pod", "web", "-v=6", "-n", "kubectl-finalizer")) {
      // kube keeps the pod (deletionTimestamp set) while a finalizer remains; kubectl waits
      // for it to go with a list+watch on fieldSelector=metadata.name=web
      delete.awaitStderr(l -> l.contains("watch=true") && l.contains("fieldSelector=metadata.name%3Dweb"),
          "logging the watch for the deletion", WAIT);
      assertThat(api.expect(200, "GET", "/api/v1/namespaces/kubectl-finalizer/pods/web", null, null))
          .contains("\"deletionTimestamp\"");

      api.mergePatch("/api/v1/namespaces/kubectl-finalizer/pods/web", "{\"metadata\":{\"finalizers\":null}}");

      assertThat(delete.awaitExit(WAIT)).as("exit code of kubectl delete; stderr:%n%s", delete.stderrText())
          .isZero();
      assertThat(delete.drainStdout()).containsExactly("pod \"web\" deleted");
    }
    assertThat(api.send("GET", "/api/v1/namespaces/kubectl-finalizer/pods/web", null, null).code()).isEqualTo(404);
  }

  @Test
  void label_addsAndOverwritesAndRemovesLabels() {
    namespaceWithWebPod("kubectl-label");

    assertThat(kubectl.ok("label", "pod", "web", "tier=frontend", "-n", "kubectl-label").stdout().strip())
        .isEqualTo("pod/web labeled");
    Kubectl.Result conflict = kubectl.run("label", "pod", "web", "tier=backend", "-n", "kubectl-label");
    assertThat(conflict.exitCode()).as("relabeling without --overwrite: %s", conflict).isNotZero();
    kubectl.ok("label", "pod", "web", "tier=backend", "--overwrite", "-n", "kubectl-label");
    kubectl.ok("label", "pod", "web", "app-", "-n", "kubectl-label");

    Pod pod = Serialization.unmarshal(kubectl.ok("get", "pod", "web", "-o", "json", "-n", "kubectl-label").stdout(),
        Pod.class);
    assertThat(pod.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("tier", "backend"));
    assertThat(kubectl.ok("get", "pods", "-l", "tier=backend", "-n", "kubectl-label").names()).containsExactly("web");
  }

  @Test
  void getPodsJson_parsesAsAPodList() {
    namespaceWithWebPod("kubectl-json");

    PodList list = Serialization.unmarshal(kubectl.ok("get", "pods", "-o", "json", "-n", "kubectl-json").stdout(),
        PodList.class);

    assertThat(list.getItems()).hasSize(1);
    Pod pod = list.getItems().getFirst();
    assertThat(pod.getKind()).isEqualTo("Pod");
    assertThat(pod.getApiVersion()).isEqualTo("v1");
    assertThat(pod.getMetadata().getName()).isEqualTo("web");
    assertThat(pod.getMetadata().getNamespace()).isEqualTo("kubectl-json");
    assertThat(pod.getMetadata().getUid()).isNotBlank();
    assertThat(pod.getMetadata().getResourceVersion()).isNotBlank();
    assertThat(pod.getMetadata().getCreationTimestamp()).isNotBlank();
    assertThat(pod.getMetadata().getLabels()).containsEntry("app", "web");
    assertThat(pod.getSpec().getNodeName()).isEqualTo("node-1");
    assertThat(pod.getSpec().getContainers()).extracting(c -> c.getImage()).containsExactly("nginx:1.27");
  }

  @Test
  void apiResources_listsPodsAndDeployments() {
    Kubectl.Result r = kubectl.ok("api-resources");

    assertThat(r.lines().getFirst()).startsWith("NAME").contains("APIVERSION", "NAMESPACED", "KIND");
    assertThat(r.lines()).anySatisfy(l ->
        assertThat(l.split("\\s+")).containsExactly("pods", "po", "v1", "true", "Pod"));
    assertThat(r.lines()).anySatisfy(l ->
        assertThat(l.split("\\s+")).containsExactly("deployments", "deploy", "apps/v1", "true", "Deployment"));
    assertThat(r.lines()).anySatisfy(l ->
        assertThat(l.split("\\s+")).containsExactly("namespaces", "ns", "v1", "false", "Namespace"));
  }

  /** What {@code kubectl api-resources -o name} prints against kube-apiserver 1.32 with its default APIs. */
  private static final List<String> KUBE_1_32_RESOURCES = List.of(
      "bindings", "componentstatuses", "configmaps", "endpoints", "events", "limitranges", "namespaces", "nodes",
      "persistentvolumeclaims", "persistentvolumes", "pods", "podtemplates", "replicationcontrollers",
      "resourcequotas", "secrets", "serviceaccounts", "services",
      "mutatingwebhookconfigurations.admissionregistration.k8s.io",
      "validatingadmissionpolicies.admissionregistration.k8s.io",
      "validatingadmissionpolicybindings.admissionregistration.k8s.io",
      "validatingwebhookconfigurations.admissionregistration.k8s.io",
      "customresourcedefinitions.apiextensions.k8s.io", "apiservices.apiregistration.k8s.io",
      "controllerrevisions.apps", "daemonsets.apps", "deployments.apps", "replicasets.apps", "statefulsets.apps",
      "selfsubjectreviews.authentication.k8s.io", "tokenreviews.authentication.k8s.io",
      "localsubjectaccessreviews.authorization.k8s.io", "selfsubjectaccessreviews.authorization.k8s.io",
      "selfsubjectrulesreviews.authorization.k8s.io", "subjectaccessreviews.authorization.k8s.io",
      "horizontalpodautoscalers.autoscaling", "cronjobs.batch", "jobs.batch",
      "certificatesigningrequests.certificates.k8s.io", "leases.coordination.k8s.io",
      "endpointslices.discovery.k8s.io", "events.events.k8s.io",
      "flowschemas.flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations.flowcontrol.apiserver.k8s.io",
      "ingressclasses.networking.k8s.io", "ingresses.networking.k8s.io", "networkpolicies.networking.k8s.io",
      "runtimeclasses.node.k8s.io", "poddisruptionbudgets.policy",
      "clusterrolebindings.rbac.authorization.k8s.io", "clusterroles.rbac.authorization.k8s.io",
      "rolebindings.rbac.authorization.k8s.io", "roles.rbac.authorization.k8s.io",
      "priorityclasses.scheduling.k8s.io", "csidrivers.storage.k8s.io", "csinodes.storage.k8s.io",
      "csistoragecapacities.storage.k8s.io", "storageclasses.storage.k8s.io", "volumeattachments.storage.k8s.io");

  @Test
  void apiResources_namesEveryResourceKube132ServesByDefault() {
    Kubectl.Result r = kubectl.ok("api-resources", "-o", "name");

    // custom resources of other tests on the shared server may add lines; kube's own must all be there, once
    List<String> builtins = r.lines().stream().filter(l -> !l.contains(".") || KUBE_1_32_RESOURCES.contains(l))
        .toList();
    assertThat(builtins).containsExactlyInAnyOrderElementsOf(KUBE_1_32_RESOURCES);
  }
}

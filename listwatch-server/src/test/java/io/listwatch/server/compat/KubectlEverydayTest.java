package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 (from PATH) for what a user types every day: {@code get -o yaml|jsonpath},
 * {@code get --chunk-size} (a paged list), {@code run}, {@code api-versions}, {@code delete} with
 * its default {@code --wait} (the owner's dependents then removed by the garbage collector),
 * {@code create -f}/{@code get -f} of a multi-document file, {@code describe}, {@code get events}
 * and {@code events}. Each test works in a namespace of its own on the class's shared server.
 */
@EndToEnd
class KubectlEverydayTest extends KubectlAgainstServer {

  /** How long to wait for kubectl to exit, or for the server to finish something, after the test did its part. */
  private static final Duration WAIT = Duration.ofSeconds(20);
  /** The continue token in a {@code -v=6} request line. */
  private static final Pattern CONTINUE = Pattern.compile("[?&]continue=([^&\\s]+)");

  private static void create(String namespace, String yaml) {
    kubectl.ok("create", "-f", kubectl.file("m.yaml", yaml).toString(), "-n", namespace);
  }

  private static String deployment(String name, int replicas, String finalizers) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: %s
          labels: {app: %s}
          finalizers: [%s]
        spec:
          replicas: %d
          selector:
            matchLabels: {app: %s}
          template:
            metadata:
              labels: {app: %s}
            spec:
              containers:
              - {name: nginx, image: "nginx:1.27"}
        """.formatted(name, name, finalizers, replicas, name, name);
  }

  /** A ReplicaSet {@code name} controlled by the deployment {@code owner} (same template), as the deployment controller makes it. */
  private static void replicaSetOwnedBy(String namespace, String name, String owner) {
    String uid = kubectl.ok("get", "deployment", owner, "-n", namespace, "-o", "jsonpath={.metadata.uid}").stdout();
    create(namespace, """
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata:
          name: %s
          labels: {app: %s}
          ownerReferences:
          - {apiVersion: apps/v1, kind: Deployment, name: %s, uid: %s, controller: true, blockOwnerDeletion: true}
        spec:
          replicas: 1
          selector:
            matchLabels: {app: %s}
          template:
            metadata:
              labels: {app: %s}
            spec:
              containers:
              - {name: nginx, image: "nginx:1.27"}
        """.formatted(name, owner, owner, uid, owner, owner));
  }

  /** A core/v1 Event about the object, as a kubelet or a controller records it. */
  private static void event(String namespace, String name, String kind, String apiVersion, String object, String uid,
      String type, String reason, String message) {
    api.expect(201, "POST", "/api/v1/namespaces/" + namespace + "/events", "application/json", """
        {"apiVersion":"v1","kind":"Event","metadata":{"name":"%s"},
         "involvedObject":{"kind":"%s","apiVersion":"%s","name":"%s","namespace":"%s","uid":"%s"},
         "type":"%s","reason":"%s","message":"%s","source":{"component":"kubelet"},
         "firstTimestamp":"2026-11-24T12:00:00Z","lastTimestamp":"2026-11-24T12:00:00Z","count":1}
        """.formatted(name, kind, apiVersion, object, namespace, uid, type, reason, message));
  }

  private static boolean exists(String path) {
    int status = api.send("GET", path, null, null).code();
    assertThat(status).as("GET %s", path).isIn(200, 404);
    return status == 200;
  }


  @Test
  void getOutputYaml_printsTheObject_andAListOfThem() {
    api.createNamespace("k-yaml");
    api.createPod("k-yaml", "web", "\"labels\":{\"app\":\"web\"}", "node-1");
    api.createPod("k-yaml", "db", "", "node-2");

    Kubectl.Result one = kubectl.ok("get", "pod", "web", "-o", "yaml", "-n", "k-yaml");
    Kubectl.Result all = kubectl.ok("get", "pods", "-o", "yaml", "-n", "k-yaml");

    assertThat(one.lines()).startsWith("apiVersion: v1", "kind: Pod", "metadata:")
        .contains("    app: web", "  name: web", "  namespace: k-yaml", "  nodeName: node-1", "  - image: nginx:1.27");
    Pod pod = Serialization.unmarshal(one.stdout(), Pod.class);
    assertThat(pod.getMetadata().getUid()).isNotBlank();
    assertThat(pod.getMetadata().getResourceVersion()).isNotBlank();
    assertThat(pod.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("app", "web"));
    assertThat(all.lines()).startsWith("apiVersion: v1", "items:").contains("kind: List");
    KubernetesList list = Serialization.unmarshal(all.stdout(), KubernetesList.class);
    assertThat(list.getItems()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
        .containsExactly("Pod/db", "Pod/web");
  }

  @Test
  void getOutputJsonpath_printsTheNamesOfTheItems() {
    api.createNamespace("k-jsonpath");
    for (String name : List.of("c", "a", "b")) {
      api.createPod("k-jsonpath", name, "", "node-1");
    }

    Kubectl.Result names = kubectl.ok("get", "pods", "-o", "jsonpath={.items[*].metadata.name}", "-n", "k-jsonpath");
    Kubectl.Result nodes = kubectl.ok("get", "pods", "-o",
        "jsonpath={range .items[*]}{.metadata.name}={.spec.nodeName}{\"\\n\"}{end}", "-n", "k-jsonpath");

    assertThat(names.stdout()).isEqualTo("a b c");
    assertThat(nodes.lines()).containsExactly("a=node-1", "b=node-1", "c=node-1");
  }

  @Test
  void getWithChunkSize_pagesTheListWithContinueTokens_andPrintsEveryRowOnce() {
    api.createNamespace("k-chunk");
    for (int i = 0; i < 120; i++) {
      api.createPod("k-chunk", "p-%03d".formatted(i), "", "node-1");
    }

    Kubectl.Result r = kubectl.ok("get", "pods", "--chunk-size=50", "-v=6", "-n", "k-chunk");

    assertThat(r.lines().getFirst()).startsWith("NAME");
    assertThat(r.lines()).filteredOn(l -> l.startsWith("NAME")).hasSize(1);
    assertThat(r.names()).containsExactlyElementsOf(IntStream.range(0, 120).mapToObj("p-%03d"::formatted).toList());
    List<String> gets = r.stderr().lines().filter(l -> l.contains("GET ") && l.contains("/namespaces/k-chunk/pods?"))
        .toList();
    assertThat(gets).as("kubectl's requests for the list:%n%s", String.join("\n", gets)).hasSize(3)
        .allSatisfy(l -> assertThat(l).contains("limit=50").contains(" 200 OK"));
    assertThat(gets.getFirst()).doesNotContain("continue=");
    List<String> tokens = gets.subList(1, 3).stream().map(l -> {
      Matcher m = CONTINUE.matcher(l);
      assertThat(m.find()).as("a continue token in %s", l).isTrue();
      return m.group(1);
    }).toList();
    assertThat(tokens).as("each page continues where the one before ended").doesNotHaveDuplicates();
  }

  @Test
  void run_createsAPodLabelledRunEqualsName_andDryRunServerStoresNothing() {
    api.createNamespace("k-run");

    Kubectl.Result run = kubectl.ok("run", "web", "--image=nginx", "--restart=Never", "-n", "k-run");
    Kubectl.Result dryRun = kubectl.ok("run", "preview", "--image=nginx:1.27", "--dry-run=server", "-o", "yaml",
        "-n", "k-run");

    assertThat(run.stdout().strip()).isEqualTo("pod/web created");
    assertThat(kubectl.ok("get", "pod", "web", "-n", "k-run").names()).containsExactly("web");
    Pod web = Serialization.unmarshal(kubectl.ok("get", "pod", "web", "-o", "json", "-n", "k-run").stdout(), Pod.class);
    assertThat(web.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("run", "web"));
    assertThat(web.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(web.getSpec().getContainers()).singleElement().satisfies(c -> {
      assertThat(c.getName()).isEqualTo("web");
      assertThat(c.getImage()).isEqualTo("nginx");
    });

    Pod preview = Serialization.unmarshal(dryRun.stdout(), Pod.class);
    assertThat(preview.getMetadata().getName()).isEqualTo("preview");
    assertThat(preview.getMetadata().getNamespace()).isEqualTo("k-run");
    assertThat(preview.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("run", "preview"));
    assertThat(preview.getSpec().getContainers()).extracting(c -> c.getImage()).containsExactly("nginx:1.27");
    Kubectl.Result missing = kubectl.run("get", "pod", "preview", "-n", "k-run");
    assertThat(missing.exitCode()).as("%s", missing).isNotZero();
    assertThat(missing.stderr()).contains("Error from server (NotFound): pods \"preview\" not found");
    assertThat(kubectl.ok("get", "pods", "-n", "k-run").names()).containsExactly("web");
  }

  @Test
  void apiVersions_listsEveryServedGroupVersion_sorted() {
    Kubectl.Result r = kubectl.ok("api-versions");

    assertThat(r.lines()).contains("v1", "apps/v1", "batch/v1", "policy/v1", "rbac.authorization.k8s.io/v1",
        "networking.k8s.io/v1", "coordination.k8s.io/v1", "discovery.k8s.io/v1", "events.k8s.io/v1",
        "storage.k8s.io/v1", "scheduling.k8s.io/v1", "flowcontrol.apiserver.k8s.io/v1");
    assertThat(r.lines()).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void deleteDeployment_waitsUntilItIsGone_thenTheGarbageCollectorRemovesItsReplicaSetAndPods() {
    api.createNamespace("k-del-deploy");
    create("k-del-deploy", deployment("web", 1, "example.com/hold"));
    replicaSetOwnedBy("k-del-deploy", "web-1", "web");
    String rsUid = kubectl.ok("get", "rs", "web-1", "-n", "k-del-deploy", "-o", "jsonpath={.metadata.uid}").stdout();
    api.createPod("k-del-deploy", "web-1-abcde", """
        "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"%s",
          "controller":true,"blockOwnerDeletion":true}]""".formatted(rsUid), ""); // on no node: no grace period
    String deploymentPath = "/apis/apps/v1/namespaces/k-del-deploy/deployments/web";

    try (Kubectl.Background delete = kubectl.start("delete", "deployment", "web", "-n", "k-del-deploy")) {
      Await.until("the deployment is marked for deletion", SERVER_WORK,
          () -> api.send("GET", deploymentPath, null, null).body().contains("deletionTimestamp"));
      assertThat(delete.isAlive()).as("kubectl waits while the deployment's finalizer holds it").isTrue();

      api.mergePatch(deploymentPath, "{\"metadata\":{\"finalizers\":null}}");

      assertThat(delete.awaitExit(WAIT)).as("exit code of kubectl delete; stderr:%n%s", delete.stderrText()).isZero();
      assertThat(delete.drainStdout()).containsExactly("deployment.apps \"web\" deleted");
    }
    assertThat(exists(deploymentPath)).as("the deployment is gone once kubectl returns").isFalse();
    Await.until("the garbage collector deletes the orphaned replicaset, then its pod", SERVER_WORK,
        () -> !exists("/apis/apps/v1/namespaces/k-del-deploy/replicasets/web-1")
            && !exists("/api/v1/namespaces/k-del-deploy/pods/web-1-abcde"));
    Kubectl.Result left = kubectl.ok("get", "deployments,replicasets,pods", "-n", "k-del-deploy");
    assertThat(left.stderr()).contains("No resources found in k-del-deploy namespace.");
  }

  @Test
  void deleteConfigMapJobAndService_withTheDefaultWait_removeThem_andTheJobsPod() {
    api.createNamespace("k-del-kinds");
    kubectl.ok("create", "configmap", "settings", "--from-literal=mode=fast", "-n", "k-del-kinds");
    kubectl.ok("create", "job", "once", "--image=busybox", "-n", "k-del-kinds");
    kubectl.ok("create", "service", "clusterip", "web", "--tcp=80:8080", "-n", "k-del-kinds");
    String jobUid = kubectl.ok("get", "job", "once", "-n", "k-del-kinds", "-o", "jsonpath={.metadata.uid}").stdout();
    api.createPod("k-del-kinds", "once-abcde", """
        "ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"once","uid":"%s",
          "controller":true,"blockOwnerDeletion":true}]""".formatted(jobUid), ""); // on no node: no grace period

    Kubectl.Result cm = kubectl.ok("delete", "configmap", "settings", "-n", "k-del-kinds");
    Kubectl.Result job = kubectl.ok("delete", "job", "once", "-n", "k-del-kinds");
    Kubectl.Result svc = kubectl.ok("delete", "service", "web", "-n", "k-del-kinds");

    assertThat(cm.stdout().strip()).isEqualTo("configmap \"settings\" deleted");
    assertThat(job.stdout().strip()).isEqualTo("job.batch \"once\" deleted");
    assertThat(svc.stdout().strip()).isEqualTo("service \"web\" deleted");
    for (String kind : List.of("configmap/settings", "job/once", "service/web")) {
      Kubectl.Result get = kubectl.run("get", kind, "-n", "k-del-kinds");
      assertThat(get.exitCode()).as("%s", get).isNotZero();
      assertThat(get.stderr()).as("%s", get).contains("Error from server (NotFound)");
    }
    Await.until("the garbage collector deletes the job's pod", SERVER_WORK,
        () -> !exists("/api/v1/namespaces/k-del-kinds/pods/once-abcde"));
  }

  @Test
  void createAndGetFromAMultiDocumentFile_handleEachObject_andCreatingAgainFailsForEach() {
    api.createNamespace("k-multi");
    Path file = kubectl.file("app.yaml", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: settings}
        data: {mode: fast}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          selector: {app: web}
          ports: [{port: 80, targetPort: 8080}]
        ---
        """ + deployment("web", 2, ""));

    Kubectl.Result created = kubectl.ok("create", "-f", file.toString(), "-n", "k-multi");
    Kubectl.Result names = kubectl.ok("get", "-f", file.toString(), "-o", "name", "-n", "k-multi");
    Kubectl.Result tables = kubectl.ok("get", "-f", file.toString(), "-n", "k-multi");

    assertThat(created.lines()).containsExactly("configmap/settings created", "service/web created",
        "deployment.apps/web created");
    assertThat(names.lines()).containsExactly("configmap/settings", "service/web", "deployment.apps/web");
    assertThat(tables.lines()).filteredOn(l -> l.startsWith("NAME")).hasSize(3);
    assertThat(tables.lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("configmap/settings", "1"));
    assertThat(tables.lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("service/web", "ClusterIP"));
    assertThat(tables.lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("deployment.apps/web", "0/2"));
    assertThat(kubectl.ok("get", "configmap", "settings", "-n", "k-multi", "-o", "jsonpath={.data.mode}").stdout())
        .isEqualTo("fast");

    Kubectl.Result again = kubectl.run("create", "-f", file.toString(), "-n", "k-multi");
    assertThat(again.exitCode()).as("%s", again).isNotZero();
    assertThat(again.stderr().lines().filter(l -> l.contains("Error from server (AlreadyExists)")))
        .as("%s", again).hasSize(3)
        .anySatisfy(l -> assertThat(l).endsWith("configmaps \"settings\" already exists"))
        .anySatisfy(l -> assertThat(l).endsWith("services \"web\" already exists"))
        .anySatisfy(l -> assertThat(l).endsWith("deployments.apps \"web\" already exists"));
  }

  @Test
  void describePod_printsItsMetadataContainersAndEvents() {
    api.createNamespace("k-describe-pod");
    api.createPod("k-describe-pod", "web", "\"labels\":{\"app\":\"web\",\"tier\":\"frontend\"}", "node-1");
    String uid = kubectl.ok("get", "pod", "web", "-n", "k-describe-pod", "-o", "jsonpath={.metadata.uid}").stdout();
    event("k-describe-pod", "web.1", "Pod", "v1", "web", uid, "Warning", "BackOff",
        "Back-off pulling image nginx:1.27");

    Kubectl.Result r = kubectl.ok("describe", "pod", "web", "-n", "k-describe-pod");

    List<String> lines = r.lines();
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Name:\\s+web"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Namespace:\\s+k-describe-pod"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Labels:\\s+app=web"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s+tier=frontend"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Status:\\s+Pending"));
    assertThat(lines).containsSubsequence("Containers:", "  main:");
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s+Image:\\s+nginx:1\\.27"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s+Type\\s+Reason\\s+Age\\s+From\\s+Message"));
    assertThat(lines).anySatisfy(l -> assertThat(l)
        .matches("\\s+Warning\\s+BackOff\\s+\\S+\\s+kubelet\\s+Back-off pulling image nginx:1\\.27"));
    assertThat(r.stderr()).isEmpty();
  }

  @Test
  void describeDeployment_printsItsSpecTemplateAndNewReplicaSet() {
    api.createNamespace("k-describe-deploy");
    create("k-describe-deploy", deployment("web", 3, ""));
    replicaSetOwnedBy("k-describe-deploy", "web-1", "web");

    Kubectl.Result r = kubectl.ok("describe", "deployment", "web", "-n", "k-describe-deploy");

    List<String> lines = r.lines();
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Name:\\s+web"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Namespace:\\s+k-describe-deploy"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Labels:\\s+app=web"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Selector:\\s+app=web"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Replicas:\\s+3 desired \\| .*"));
    assertThat(lines).containsSubsequence("Pod Template:", "  Containers:", "   nginx:");
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s+Image:\\s+nginx:1\\.27"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("NewReplicaSet:\\s+web-1 \\(0/1 replicas created\\)"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("Events:\\s+<none>"));
    assertThat(r.stderr()).isEmpty();
  }

  /** kubectl's describers read spec.replicas of these kinds unchecked: without kube's default of 1 they crash. */
  @Test
  void describeWorkloads_fromManifestsWithoutReplicas_showOneDesired() {
    api.createNamespace("k-describe-default");
    create("k-describe-default", """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: db}
        spec:
          serviceName: db
          selector: {matchLabels: {app: db}}
          template:
            metadata: {labels: {app: db}}
            spec: {containers: [{name: c, image: postgres}]}
        ---
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata: {name: cache}
        spec:
          selector: {matchLabels: {app: cache}}
          template:
            metadata: {labels: {app: cache}}
            spec: {containers: [{name: c, image: redis}]}
        ---
        """ + deployment("web", 2, ""));
    kubectl.ok("patch", "deployment", "web", "--type=merge", "-p", "{\"spec\":{\"replicas\":null}}",
        "-n", "k-describe-default");

    Kubectl.Result sts = kubectl.run("describe", "statefulset", "db", "-n", "k-describe-default");
    Kubectl.Result rs = kubectl.run("describe", "replicaset", "cache", "-n", "k-describe-default");
    Kubectl.Result deploy = kubectl.run("describe", "deployment", "web", "-n", "k-describe-default");

    for (Kubectl.Result r : List.of(sts, rs, deploy)) {
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stderr()).as("%s", r).isEmpty();
    }
    assertThat(sts.lines()).anySatisfy(l -> assertThat(l).matches("Replicas:\\s+1 desired \\| 0 total"));
    assertThat(rs.lines()).anySatisfy(l -> assertThat(l).matches("Replicas:\\s+0 current / 1 desired"));
    assertThat(deploy.lines()).anySatisfy(l -> assertThat(l).matches("Replicas:\\s+1 desired \\| .*"));
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "k-describe-default", "-o", "jsonpath={.spec.replicas}")
        .stdout()).as("a patch that removes replicas leaves kube's default").isEqualTo("1");
  }

  /** kubectl's PriorityClass describer reads preemptionPolicy unchecked: without kube's default it crashes. */
  @Test
  void describePriorityClass_fromAManifestWithoutPreemptionPolicy_showsKubesDefault() {
    // from a manifest: kubectl create priorityclass would send the policy itself
    kubectl.ok("create", "-f", kubectl.file("pc.yaml", """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: everyday-high}
        value: 1000
        """).toString());

    Kubectl.Result r = kubectl.run("describe", "priorityclass", "everyday-high");

    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.lines()).anySatisfy(l -> assertThat(l).matches("Name:\\s+everyday-high"));
    assertThat(r.lines()).anySatisfy(l -> assertThat(l).matches("Value:\\s+1000"));
    assertThat(r.lines()).anySatisfy(l -> assertThat(l).matches("PreemptionPolicy:\\s+PreemptLowerPriority"));
  }

  @Test
  void getEventsAndEvents_listTheNamespacesEvents_filteredByFieldSelector() {
    api.createNamespace("k-events");
    api.createPod("k-events", "web", "", "node-1");
    api.createPod("k-events", "db", "", "node-1");
    event("k-events", "web.1", "Pod", "v1", "web", "u-web", "Normal", "Pulled", "Container image pulled");
    event("k-events", "db.1", "Pod", "v1", "db", "u-db", "Warning", "Failed", "Error: ImagePullBackOff");

    Kubectl.Result all = kubectl.ok("get", "events", "-n", "k-events");
    Kubectl.Result warnings = kubectl.ok("get", "events", "--field-selector", "type=Warning", "-n", "k-events");
    Kubectl.Result forWeb = kubectl.ok("events", "--for", "pod/web", "-n", "k-events");

    assertThat(all.lines().getFirst().split("\\s{2,}")).containsExactly("LAST SEEN", "TYPE", "REASON", "OBJECT",
        "MESSAGE");
    assertThat(all.lines()).hasSize(3)
        .anySatisfy(l -> assertThat(l.split("\\s{2,}")).endsWith("Normal", "Pulled", "pod/web", "Container image pulled"))
        .anySatisfy(l -> assertThat(l.split("\\s{2,}")).endsWith("Warning", "Failed", "pod/db", "Error: ImagePullBackOff"));
    assertThat(warnings.lines()).hasSize(2);
    assertThat(warnings.lines().get(1)).contains("pod/db");
    assertThat(forWeb.lines()).hasSize(2);
    assertThat(forWeb.lines().get(1).split("\\s{2,}")).endsWith("Normal", "Pulled", "Pod/web", "Container image pulled");
  }

  @Test
  void aNewNamespace_getsItsDefaultServiceAccount_andGetsItBackWhenDeleted() {
    kubectl.ok("create", "namespace", "sa-default");

    Await.until("the service accounts controller creates default", SERVER_WORK,
        () -> kubectl.run("get", "serviceaccount", "default", "-n", "sa-default").exitCode() == 0);
    String firstUid = kubectl.ok("get", "sa", "default", "-n", "sa-default", "-o", "jsonpath={.metadata.uid}").stdout();
    kubectl.ok("delete", "serviceaccount", "default", "-n", "sa-default");

    Await.until("it is created again", SERVER_WORK, () -> {
      Kubectl.Result r = kubectl.run("get", "sa", "default", "-n", "sa-default", "-o", "jsonpath={.metadata.uid}");
      return r.exitCode() == 0 && !r.stdout().equals(firstUid);
    });
    assertThat(kubectl.ok("create", "token", "default", "-n", "sa-default").stdout()).startsWith("eyJ");
  }
}

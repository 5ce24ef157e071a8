package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl 1.32 (from PATH) against a server with a fake clock: scale, delete with its default
 * {@code --wait} (a pod's grace period, {@code --cascade=foreground|orphan}, a namespace), and
 * the kinds served beyond step 4, created from manifests ({@code create -f}, validated by the
 * server) and by kubectl's typed commands ({@code create job}, {@code create cronjob}).
 */
@EndToEnd
class KubectlLifecycleTest {

  private static final Duration WAIT = Duration.ofSeconds(25);
  private static final FakeClock CLOCK = new FakeClock(Instant.parse("2026-11-24T12:00:00Z"));

  @TempDir
  static Path workDir;

  private static ApiServer server;
  private static Kubectl kubectl;
  private static RawApi api;

  @BeforeAll
  static void setUp() {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    server = ApiServer.builder().clock(CLOCK).build().start();
    kubectl = Kubectl.forServer(server.url(), workDir);
    api = new RawApi(server.url());
  }

  @AfterAll
  static void tearDown() {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static void apply(String namespace, String yaml) {
    kubectl.ok("create", "-f", kubectl.file("m.yaml", yaml).toString(), "-n", namespace);
  }

  private static String deployment(String name, int replicas) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: %s
        spec:
          replicas: %d
          selector:
            matchLabels: {app: %s}
          template:
            metadata:
              labels: {app: %s}
            spec:
              containers:
              - {name: c, image: nginx}
        """.formatted(name, replicas, name, name);
  }

  /** The deployment "web" owning the replicaset "web-1" (blockOwnerDeletion). */
  private static void deploymentWithReplicaSet(String ns) {
    apply(ns, deployment("web", 1));
    String uid = kubectl.ok("get", "deployment", "web", "-n", ns, "-o", "jsonpath={.metadata.uid}").stdout().strip();
    apply(ns, """
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata:
          name: web-1
          ownerReferences:
          - {apiVersion: apps/v1, kind: Deployment, name: web, uid: %s, controller: true, blockOwnerDeletion: true}
        spec:
          replicas: 1
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - {name: c, image: nginx}
        """.formatted(uid));
  }

  @Test
  void scale_setsTheDeploymentsReplicas() {
    api.createNamespace("k-scale");
    apply("k-scale", deployment("web", 1));

    Kubectl.Result r = kubectl.ok("scale", "deployment/web", "--replicas=3", "-n", "k-scale");

    assertThat(r.stdout().strip()).isEqualTo("deployment.apps/web scaled");
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "k-scale", "-o", "jsonpath={.spec.replicas}").stdout())
        .isEqualTo("3");
  }

  @Test
  void deletePod_waitsForTheGracePeriod_endingWhenTheClockPassesIt() {
    api.createNamespace("k-grace");
    api.createPod("k-grace", "p", "", "node-1");

    try (Kubectl.Background delete = kubectl.start("delete", "pod", "p", "-n", "k-grace")) {
      Await.until("the pod is marked for deletion", WAIT,
          () -> api.send("GET", "/api/v1/namespaces/k-grace/pods/p", null, null).body().contains("deletionTimestamp"));
      assertThat(delete.isAlive()).as("kubectl waits for the grace period").isTrue();

      CLOCK.advance(Duration.ofSeconds(30));

      assertThat(delete.awaitExit(WAIT)).as(delete.stderrText()).isZero();
      assertThat(String.join("\n", delete.drainStdout())).contains("pod \"p\" deleted");
    }
  }

  @Test
  void deletePod_withForceAndGraceZero_endsAtOnce() {
    api.createNamespace("k-force");
    api.createPod("k-force", "p", "", "node-1");

    Kubectl.Result r = kubectl.ok("delete", "pod", "p", "-n", "k-force", "--grace-period=0", "--force");

    assertThat(r.stdout()).contains("pod \"p\" force deleted");
    assertThat(kubectl.run("get", "pod", "p", "-n", "k-force").stderr()).contains("NotFound");
  }

  @Test
  void deleteDeployment_cascadeForeground_deletesTheReplicaSetFirst() {
    api.createNamespace("k-fg");
    deploymentWithReplicaSet("k-fg");

    Kubectl.Result r = kubectl.ok("delete", "deployment", "web", "-n", "k-fg", "--cascade=foreground");

    assertThat(r.stdout().strip()).isEqualTo("deployment.apps \"web\" deleted");
    assertThat(kubectl.ok("get", "replicasets", "-n", "k-fg").stdout() + kubectl.ok("get", "replicasets", "-n", "k-fg")
        .stderr()).contains("No resources found");
  }

  @Test
  void deleteDeployment_cascadeOrphan_leavesTheReplicaSetWithoutOwner() {
    api.createNamespace("k-orphan");
    deploymentWithReplicaSet("k-orphan");

    kubectl.ok("delete", "deployment", "web", "-n", "k-orphan", "--cascade=orphan");

    assertThat(kubectl.ok("get", "replicasets", "-n", "k-orphan").names()).containsExactly("web-1");
    assertThat(kubectl.ok("get", "rs", "web-1", "-n", "k-orphan", "-o", "jsonpath={.metadata.ownerReferences}")
        .stdout()).isEmpty();
  }

  @Test
  void deleteNamespace_removesItsContents_thenTheNamespace() {
    api.createNamespace("k-nsdel");
    apply("k-nsdel", deployment("web", 1));
    api.createPod("k-nsdel", "p", "", ""); // not on a node: no grace period

    Kubectl.Result r = kubectl.ok("delete", "namespace", "k-nsdel");

    assertThat(r.stdout().strip()).isEqualTo("namespace \"k-nsdel\" deleted");
    assertThat(kubectl.run("get", "namespace", "k-nsdel").stderr()).contains("NotFound");
    assertThat(kubectl.ok("get", "pods,deployments", "-n", "k-nsdel").stderr()).contains("No resources found");
  }

  @Test
  void getEachNewKind_afterCreateFromFile() {
    api.createNamespace("k-kinds");
    apply("k-kinds", """
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
        kind: DaemonSet
        metadata: {name: agent}
        spec:
          selector: {matchLabels: {app: agent}}
          template:
            metadata: {labels: {app: agent}}
            spec: {containers: [{name: c, image: agent}]}
        ---
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata: {name: db-1}
        data: {}
        revision: 1
        ---
        apiVersion: batch/v1
        kind: Job
        metadata: {name: once}
        spec:
          template:
            spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
        ---
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: nightly}
        spec:
          schedule: "0 0 * * *"
          jobTemplate:
            spec:
              template:
                spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
        ---
        apiVersion: v1
        kind: Endpoints
        metadata: {name: svc}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec:
          accessModes: [ReadWriteOnce]
          resources: {requests: {storage: 1Gi}}
        ---
        apiVersion: v1
        kind: LimitRange
        metadata: {name: limits}
        spec: {limits: [{type: Container, default: {cpu: 100m}}]}
        ---
        apiVersion: v1
        kind: ResourceQuota
        metadata: {name: quota}
        spec: {hard: {pods: "10"}}
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: svc-abc}
        addressType: IPv4
        endpoints: []
        ---
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: db}
        spec: {minAvailable: 1, selector: {matchLabels: {app: db}}}
        ---
        apiVersion: events.k8s.io/v1
        kind: Event
        metadata: {name: e1}
        eventTime: "2026-11-24T12:00:00.000000Z"
        reportingController: test
        reportingInstance: test-1
        action: Testing
        reason: Tested
        type: Normal
        regarding: {kind: Pod, name: p, namespace: k-kinds}
        ---
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata: {name: web}
        spec: {defaultBackend: {service: {name: web, port: {number: 80}}}}
        ---
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata: {name: deny}
        spec: {podSelector: {}}
        """);
    kubectl.ok("create", "-f", kubectl.file("cluster.yaml", """
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv1}
        spec:
          capacity: {storage: 1Gi}
          accessModes: [ReadWriteOnce]
          hostPath: {path: /tmp/pv1}
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: high}
        value: 1000
        ---
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata: {name: fast}
        provisioner: example.com/fast
        """).toString());

    String[][] namespaced = {{"statefulsets", "db"}, {"daemonsets", "agent"}, {"controllerrevisions", "db-1"},
        {"jobs", "once"}, {"cronjobs", "nightly"}, {"endpoints", "svc"}, {"pvc", "data"}, {"limitranges", "limits"},
        {"quota", "quota"}, {"endpointslices", "svc-abc"}, {"pdb", "db"}, {"events.events.k8s.io", "e1"},
        {"ingresses", "web"}, {"netpol", "deny"}};
    for (String[] kind : namespaced) {
      // -o name: an events.k8s.io Event's table starts with LAST SEEN, not NAME, as kube prints it
      assertThat(kubectl.ok("get", kind[0], "-n", "k-kinds", "-o", "name").stdout().strip())
          .as(kind[0]).endsWith("/" + kind[1]).doesNotContain("\n");
    }
    assertThat(kubectl.ok("get", "pv", "pv1", "-o", "jsonpath={.status.phase}").stdout()).isEqualTo("Pending");
    assertThat(kubectl.ok("get", "priorityclasses").names()).contains("high");
    assertThat(kubectl.ok("get", "sc").names()).containsExactly("fast");
    assertThat(kubectl.ok("get", "jobs", "-n", "k-kinds", "--field-selector", "status.successful=0").names())
        .containsExactly("once");
  }

  /** {@code kubectl create job|cronjob} send their bodies in protobuf. */
  @Test
  void createJobAndCronJob_fromKubectlsTypedCommands() {
    api.createNamespace("k-create");

    Kubectl.Result createdJob = kubectl.ok("create", "job", "once", "--image=busybox", "-n", "k-create");
    Kubectl.Result createdCron = kubectl.ok("create", "cronjob", "nightly", "--image=busybox",
        "--schedule=0 0 * * *", "-n", "k-create");

    assertThat(createdJob.stdout().strip()).isEqualTo("job.batch/once created");
    assertThat(createdCron.stdout().strip()).isEqualTo("cronjob.batch/nightly created");
    assertThat(kubectl.ok("get", "cronjobs", "-n", "k-create", "-o", "jsonpath={.items[0].spec.schedule}").stdout())
        .isEqualTo("0 0 * * *");
    assertThat(kubectl.ok("get", "jobs", "-n", "k-create").names()).containsExactly("once");
    // kube's job strategy generated the selector: the job's uid, also on the template with its name
    String uid = kubectl.ok("get", "job", "once", "-n", "k-create", "-o", "jsonpath={.metadata.uid}").stdout();
    assertThat(uid).isNotBlank();
    assertThat(kubectl.ok("get", "job", "once", "-n", "k-create", "-o",
        "jsonpath={.spec.selector.matchLabels.batch\\.kubernetes\\.io/controller-uid}").stdout()).isEqualTo(uid);
    assertThat(kubectl.ok("get", "job", "once", "-n", "k-create", "-o",
        "jsonpath={.spec.template.metadata.labels.job-name} {.spec.template.metadata.labels.controller-uid}")
        .stdout()).isEqualTo("once " + uid);
  }

  @Test
  void createJob_withItsOwnSelectorButNoManualSelector_isRefusedAsKube() {
    api.createNamespace("k-selector");
    Path job = kubectl.file("job-selector.yaml", """
        apiVersion: batch/v1
        kind: Job
        metadata: {name: picky}
        spec:
          selector: {matchLabels: {app: picky}}
          template:
            metadata: {labels: {app: picky}}
            spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
        """);

    Kubectl.Result r = kubectl.run("create", "-f", job.toString(), "-n", "k-selector");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("The Job \"picky\" is invalid: spec.selector: Invalid value")
        .contains("`selector` not auto-generated");
    assertThat(kubectl.run("get", "job", "picky", "-n", "k-selector").stderr()).contains("NotFound");
  }
}

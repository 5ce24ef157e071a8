package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl rollout status} and {@code describe} of workloads created from manifests that
 * leave their update strategy out, as most do: the server's defaults (RollingUpdate) are what
 * kubectl needs. With no controllers running, each test writes the status a controller would.
 * kubectl 1.32 from PATH; each test in a namespace of its own.
 */
@EndToEnd
class KubectlRolloutTest extends KubectlAgainstServer {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private static void create(String namespace, String yaml) {
    kubectl.ok("create", "-f", kubectl.file("m.yaml", yaml).toString(), "-n", namespace);
  }

  private static String workload(String kind, String name, String extraSpec) {
    return """
        apiVersion: apps/v1
        kind: %s
        metadata: {name: %s}
        spec:
          %s
          selector: {matchLabels: {app: %s}}
          template:
            metadata: {labels: {app: %s}}
            spec: {containers: [{name: c, image: "nginx:1.27"}]}
        """.formatted(kind, name, extraSpec, name, name);
  }

  /**
   * Runs {@code kubectl rollout status} until it says it waits, writes {@code status} as the
   * workload's controller would, and returns what kubectl printed once it exited.
   */
  private static List<String> rolloutStatusUntil(String namespace, String resource, String statusPath,
      String status) {
    try (Kubectl.Background rollout = kubectl.start("rollout", "status", resource, "--timeout=60s", "-n", namespace)) {
      String waiting = rollout.nextLine(WAIT);
      assertThat(waiting).as("kubectl waits for the controller first").startsWith("Waiting for");

      api.mergePatch(statusPath, status);

      assertThat(rollout.awaitExit(WAIT)).as("exit code of kubectl rollout status; stderr:%n%s", rollout.stderrText())
          .isZero();
      return rollout.drainStdout();
    }
  }

  @Test
  void rolloutStatus_ofAStatefulSet_waits_untilItsPodsAreReadyAndUpdated() {
    api.createNamespace("k-rollout-sts");
    create("k-rollout-sts", workload("StatefulSet", "db", "serviceName: db"));

    List<String> printed = rolloutStatusUntil("k-rollout-sts", "statefulset/db",
        "/apis/apps/v1/namespaces/k-rollout-sts/statefulsets/db/status", """
            {"status":{"observedGeneration":1,"replicas":1,"readyReplicas":1,"currentReplicas":1,
              "updatedReplicas":1,"availableReplicas":1,"currentRevision":"db-1","updateRevision":"db-1"}}""");

    assertThat(printed).last().isEqualTo("partitioned roll out complete: 1 new pods have been updated...");
  }

  @Test
  void rolloutStatus_ofADaemonSet_waits_untilEveryNodeRunsTheUpdatedPod() {
    api.createNamespace("k-rollout-ds");
    create("k-rollout-ds", workload("DaemonSet", "agent", "minReadySeconds: 0"));

    List<String> printed = rolloutStatusUntil("k-rollout-ds", "daemonset/agent",
        "/apis/apps/v1/namespaces/k-rollout-ds/daemonsets/agent/status", """
            {"status":{"observedGeneration":1,"desiredNumberScheduled":2,"currentNumberScheduled":2,
              "updatedNumberScheduled":2,"numberAvailable":2,"numberReady":2,"numberMisscheduled":0}}""");

    assertThat(printed).last().isEqualTo("daemon set \"agent\" successfully rolled out");
  }

  @Test
  void rolloutStatusAndDescribe_ofADeployment_showTheDefaultRollingUpdate() {
    api.createNamespace("k-rollout-deploy");
    create("k-rollout-deploy", workload("Deployment", "web", "replicas: 2"));

    List<String> printed = rolloutStatusUntil("k-rollout-deploy", "deployment/web",
        "/apis/apps/v1/namespaces/k-rollout-deploy/deployments/web/status", """
            {"status":{"observedGeneration":1,"replicas":2,"updatedReplicas":2,"readyReplicas":2,
              "availableReplicas":2,"conditions":[{"type":"Available","status":"True",
              "reason":"MinimumReplicasAvailable"}]}}""");
    Kubectl.Result describe = kubectl.ok("describe", "deployment", "web", "-n", "k-rollout-deploy");

    assertThat(printed).last().isEqualTo("deployment \"web\" successfully rolled out");
    assertThat(describe.lines()).anySatisfy(l -> assertThat(l).matches("StrategyType:\\s+RollingUpdate"));
    assertThat(describe.lines()).anySatisfy(l -> assertThat(l)
        .matches("RollingUpdateStrategy:\\s+25% max unavailable, 25% max surge"));
    assertThat(describe.lines()).anySatisfy(l -> assertThat(l)
        .matches("Replicas:\\s+2 desired \\| 2 updated \\| 2 total \\| 2 available \\| 0 unavailable"));
  }

  @Test
  void rolloutStatus_ofAStatefulSetWithOnDelete_isRefusedByKubectl_asAgainstKube() {
    api.createNamespace("k-rollout-ondelete");
    create("k-rollout-ondelete", workload("StatefulSet", "db", "serviceName: db\n  updateStrategy: {type: OnDelete}"));

    Kubectl.Result r = kubectl.run("rollout", "status", "statefulset/db", "--timeout=5s", "-n", "k-rollout-ondelete");

    assertThat(r.exitCode()).as("%s", r).isNotZero();
    assertThat(r.stderr()).contains("rollout status is only available for RollingUpdate strategy type");
  }
}

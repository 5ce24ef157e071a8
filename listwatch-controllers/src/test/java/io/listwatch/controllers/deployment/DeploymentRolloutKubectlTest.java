package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment controller against the in-process server, driven by kubectl from PATH, with
 * {@link ReplicaSetPlayer} playing the replicaset controller (every ReplicaSet's pods exist and
 * are available at once): create, set image, rollout status, history, undo, pause and resume,
 * restart.
 */
@EndToEnd
@Timeout(300)
class DeploymentRolloutKubectlTest {

  /** How long the controller may take to bring a deployment where a test waits for it. */
  private static final Duration BOUND = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  private static String revision(DynamicObject rs) {
    return rs.annotations().getOrDefault(Revisions.REVISION, "");
  }

  private static int replicas(DynamicObject rs) {
    return rs.get("spec", "replicas").map(JsonNode::asInt).orElse(1);
  }

  private static List<DynamicObject> replicaSets(KubeClient client) {
    return client.dynamic(ResourceType.REPLICASETS).list("default", ListOptions.builder().build()).items().stream()
        .sorted(Comparator.comparing(DynamicObject::name)).toList();
  }

  private static DynamicObject await(KubeClient client, Predicate<DynamicObject> condition) {
    return Await.until("the deployment reaches the condition", BOUND,
        () -> client.dynamic(ResourceType.DEPLOYMENTS).get("default", "web").orElseThrow(), condition);
  }

  /** kubectl from PATH against {@code server}, with room for {@code rollout status --timeout=60s}. */
  private Kubectl kubectl(ApiServer server) {
    return Kubectl.forServer(server.url(), dir).withTimeouts(Duration.ofSeconds(90), Duration.ofSeconds(30));
  }

  private static boolean observed(DynamicObject d) {
    return d.get("status", "observedGeneration").map(JsonNode::asLong).orElse(0L)
        >= d.get("metadata", "generation").map(JsonNode::asLong).orElse(0L);
  }

  @Test
  void kubectl_createSetImageUndoPauseResumeRestart_rollOutThroughReplicaSets() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    EventRecorder recorder = (involved, type, reason, message) -> events.add(reason + " " + message);
    try (ApiServer server = ApiServer.builder().build().start();
        KubeClient client = KubeClient.create(Config.forUrl(server.url()));
        SharedInformerFactory factory = SharedInformerFactory.builder(client).build();
        DeploymentController controller =
            new DeploymentController(new ControllerContext(client, factory, recorder, Clock.system()))) {
      new ReplicaSetPlayer(client, factory);
      factory.start();
      controller.run(2);
      Kubectl kubectl = kubectl(server);

      kubectl.ok("create", "deployment", "web", "--image=nginx:1", "--replicas=3");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<DynamicObject> first = replicaSets(client);
      assertThat(first).hasSize(1);
      DynamicObject v1 = first.getFirst();
      assertThat(v1.name()).matches("web-[bcdfghjklmnpqrstvwxz2456789]+");
      assertThat(v1.labels()).containsKey("pod-template-hash");
      assertThat(replicas(v1)).isEqualTo(3);
      assertThat(kubectl.ok("get", "deployment", "web", "-o",
          "jsonpath={.status.availableReplicas} {.status.conditions[?(@.type==\"Available\")].reason}"
              + " {.status.conditions[?(@.type==\"Progressing\")].reason}").stdout())
          .isEqualTo("3 MinimumReplicasAvailable NewReplicaSetAvailable");

      kubectl.ok("set", "image", "deployment/web", "nginx=nginx:2");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<DynamicObject> second = replicaSets(client);
      assertThat(second).hasSize(2);
      DynamicObject v2 = second.stream().filter(rs -> !rs.name().equals(v1.name())).findFirst().orElseThrow();
      assertThat(replicas(v2)).isEqualTo(3);
      assertThat(revision(v2)).isEqualTo("2");
      assertThat(replicas(second.stream().filter(rs -> rs.name().equals(v1.name())).findFirst().orElseThrow()))
          .isZero();
      assertThat(events).contains("ScalingReplicaSet Scaled up replica set " + v1.name() + " from 0 to 3");
      assertThat(events).anyMatch(e -> e.startsWith("ScalingReplicaSet Scaled down replica set " + v1.name()));
      assertThat(kubectl.ok("rollout", "history", "deployment/web").stdout())
          .containsPattern("(?m)^1 ").containsPattern("(?m)^2 ");

      kubectl.ok("rollout", "undo", "deployment/web");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<DynamicObject> undone = replicaSets(client);
      assertThat(undone).as("undo reuses the first ReplicaSet").hasSize(2);
      DynamicObject back = undone.stream().filter(rs -> rs.name().equals(v1.name())).findFirst().orElseThrow();
      assertThat(replicas(back)).isEqualTo(3);
      assertThat(revision(back)).isEqualTo("3");
      assertThat(back.annotations()).containsEntry(Revisions.REVISION_HISTORY, "1");

      kubectl.ok("rollout", "pause", "deployment/web");
      kubectl.ok("set", "image", "deployment/web", "nginx=nginx:3");
      DynamicObject paused = await(client, DeploymentRolloutKubectlTest::observed);
      assertThat(paused.get("status", "conditions").orElseThrow().toString()).contains("DeploymentPaused");
      assertThat(replicaSets(client)).as("no rollout while paused").hasSize(2);

      kubectl.ok("rollout", "resume", "deployment/web");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      assertThat(replicaSets(client)).hasSize(3);

      kubectl.ok("rollout", "restart", "deployment/web");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<DynamicObject> restarted = replicaSets(client);
      assertThat(restarted).hasSize(4);
      assertThat(restarted.stream().filter(rs -> replicas(rs) > 0).toList()).singleElement()
          .satisfies(rs -> assertThat(revision(rs)).isEqualTo("5"));

      kubectl.ok("scale", "deployment/web", "--replicas=5");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      assertThat(kubectl.ok("get", "deployment", "web", "-o", "jsonpath={.status.readyReplicas}").stdout())
          .isEqualTo("5");
    }
  }

  @Test
  void kubectl_recreateStrategy_setImage_replacesTheOldReplicaSetWholly() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    EventRecorder recorder = (involved, type, reason, message) -> events.add(reason + " " + message);
    try (ApiServer server = ApiServer.builder().build().start();
        KubeClient client = KubeClient.create(Config.forUrl(server.url()));
        SharedInformerFactory factory = SharedInformerFactory.builder(client).build();
        DeploymentController controller =
            new DeploymentController(new ControllerContext(client, factory, recorder, Clock.system()))) {
      new ReplicaSetPlayer(client, factory);
      factory.start();
      controller.run(1);
      Kubectl kubectl = kubectl(server);
      kubectl.ok("create", "deployment", "web", "--image=nginx:1", "--replicas=2");
      kubectl.ok("patch", "deployment", "web", "--type=merge", "-p",
          "{\"spec\":{\"strategy\":{\"type\":\"Recreate\",\"rollingUpdate\":null}}}");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      String v1 = replicaSets(client).getFirst().name();
      kubectl.ok("set", "image", "deployment/web", "nginx=nginx:2");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<DynamicObject> rss = replicaSets(client);
      assertThat(rss).hasSize(2);
      DynamicObject v2 = rss.stream().filter(rs -> !rs.name().equals(v1)).findFirst().orElseThrow();
      assertThat(replicas(v2)).isEqualTo(2);
      // the old ReplicaSet went to zero in one step, before the new one got any replica
      int down = events.indexOf("ScalingReplicaSet Scaled down replica set " + v1 + " from 2 to 0");
      int up = events.indexOf("ScalingReplicaSet Scaled up replica set " + v2.name() + " from 0 to 2");
      assertThat(down).isNotNegative();
      assertThat(up).isGreaterThan(down);

      // an orphan the selector matches is adopted through the server's strategic merge patch
      ObjectNode orphan = DeploymentFixture.replicaSet("nginx:0", 0, 0, 0, 0);
      ObjectNode meta = (ObjectNode) orphan.path("metadata");
      meta.remove(List.of("ownerReferences", "uid", "creationTimestamp", "generation"));
      orphan.remove("status");
      client.dynamic(ResourceType.REPLICASETS).create(DynamicObject.of(orphan));
      String uid = client.dynamic(ResourceType.DEPLOYMENTS).get("default", "web").orElseThrow().uid();
      Await.until("the orphan is adopted", BOUND,
          () -> client.dynamic(ResourceType.REPLICASETS).get("default", DeploymentFixture.rsName("nginx:0"))
              .flatMap(rs -> rs.get("metadata", "ownerReferences", "0", "uid")).map(JsonNode::asText).orElse(""),
          uid::equals);
    }
  }
}

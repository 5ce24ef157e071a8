package io.listwatch.demo;

import static io.listwatch.demo.DemoCluster.await;
import static io.listwatch.demo.DemoCluster.readyNodes;
import static io.listwatch.demo.DemoCluster.runningPods;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.controllers.manager.ControllerSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as a user meets it: the server, the default controllers and three node agents in
 * this process, driven by the real {@code kubectl} on PATH with the kubeconfig the demo wrote.
 * A deployment is created, spread over the nodes, scaled, rolled out, rolled back and deleted.
 */
class DemoKubectlTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** How long the cluster may take to reach a state the test waits for. */

  @Test
  void deployment_createScaleRolloutUndoDelete_withKubectl_onThreeNodes(@TempDir Path dir) throws Exception {
    assertThat(KubectlRunner.binary()).as("kubectl on PATH").isNotNull();
    try (Demo demo = Demo.start(0, null, dir.resolve("kubeconfig.yaml"), 3, ControllerSet.defaults(),
        DemoCommand.NODE_AGENTS)) {
      KubectlRunner kubectl = new KubectlRunner(demo.kubeconfig(), dir);
      await("3 Ready nodes", () -> readyNodes(kubectl), n -> n.size() == 3);

      // kubectl create deployment web --image=nginx --replicas=3, with a 1 s termination grace
      // period in its pod template so that the pods it removes go quickly (the default is 30 s)
      ObjectNode web = (ObjectNode) JSON.readTree(kubectl.ok("create", "deployment", "web", "--image=nginx",
          "--replicas=3", "--dry-run=client", "-o", "json"));
      ((ObjectNode) web.path("spec").path("template").path("spec")).put("terminationGracePeriodSeconds", 1);
      kubectl.ok("create", "-f", kubectl.file("web.json", JSON.writeValueAsString(web)).toString());
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<JsonNode> pods = await("3 Running pods", () -> runningPods(kubectl), p -> p.size() == 3);
      assertThat(pods).extracting(p -> p.path("spec").path("nodeName").asText())
          .as("one pod on each node").containsExactlyInAnyOrder("node-1", "node-2", "node-3");

      kubectl.ok("scale", "deployment", "web", "--replicas=10");
      await("10 Running pods", () -> runningPods(kubectl), p -> p.size() == 10);
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      kubectl.ok("scale", "deployment", "web", "--replicas=2");
      await("2 Running pods", () -> runningPods(kubectl), p -> p.size() == 2);

      kubectl.ok("set", "image", "deployment/web", "nginx=nginx:1.27");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      await("2 Running pods of nginx:1.27", () -> images(runningPods(kubectl)), i -> i.equals(List.of("nginx:1.27", "nginx:1.27")));
      assertThat(kubectl.json("get", "deployment", "web").path("status").path("updatedReplicas").asInt()).isEqualTo(2);

      kubectl.ok("rollout", "undo", "deployment/web");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      await("2 Running pods of nginx", () -> images(runningPods(kubectl)), i -> i.equals(List.of("nginx", "nginx")));

      assertThat(kubectl.json("get", "replicasets", "-l", "app=web").path("items")).hasSize(2);
      kubectl.ok("delete", "deployment", "web");
      await("no ReplicaSets of web", () -> kubectl.json("get", "replicasets", "-l", "app=web").path("items").size(),
          n -> n == 0);
      await("no pods of web", () -> kubectl.json("get", "pods", "-l", "app=web").path("items").size(), n -> n == 0);

      Set<String> reasons = new TreeSet<>();
      kubectl.json("get", "events").path("items").forEach(e -> reasons.add(e.path("reason").asText()));
      assertThat(reasons).contains("ScalingReplicaSet", "SuccessfulCreate", "Scheduled");
    }
  }

  private static List<String> images(List<JsonNode> pods) {
    return pods.stream().map(p -> p.path("spec").path("containers").path(0).path("image").asText()).toList();
  }
}

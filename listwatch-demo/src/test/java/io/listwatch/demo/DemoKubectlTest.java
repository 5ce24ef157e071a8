package io.listwatch.demo;

import static io.listwatch.demo.DemoCluster.AWAIT;
import static io.listwatch.demo.DemoCluster.json;
import static io.listwatch.demo.DemoCluster.readyNodes;
import static io.listwatch.demo.DemoCluster.runningPods;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
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
@EndToEnd
class DemoKubectlTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void deployment_createScaleRolloutUndoDelete_withKubectl_onThreeNodes(@TempDir Path dir) throws Exception {
    assertThat(Kubectl.binary()).as("kubectl on PATH").isPresent();
    try (Demo demo = Demo.start(0, null, dir.resolve("kubeconfig.yaml"), 3, ControllerSet.defaults(),
        DemoCommand.NODE_AGENTS)) {
      Kubectl kubectl = DemoCluster.kubectl(demo.kubeconfig(), dir);
      Await.until("3 Ready nodes", AWAIT, () -> readyNodes(kubectl), n -> n.size() == 3);

      // kubectl create deployment web --image=nginx --replicas=3, with a 1 s termination grace
      // period in its pod template so that the pods it removes go quickly (the default is 30 s)
      ObjectNode web = (ObjectNode) JSON.readTree(kubectl.ok("create", "deployment", "web", "--image=nginx",
          "--replicas=3", "--dry-run=client", "-o", "json").stdout());
      ((ObjectNode) web.path("spec").path("template").path("spec")).put("terminationGracePeriodSeconds", 1);
      kubectl.ok("create", "-f", kubectl.file("web.json", JSON.writeValueAsString(web)).toString());
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      List<JsonNode> pods = Await.until("3 Running pods", AWAIT, () -> runningPods(kubectl), p -> p.size() == 3);
      assertThat(pods).extracting(p -> p.path("spec").path("nodeName").asText())
          .as("one pod on each node").containsExactlyInAnyOrder("node-1", "node-2", "node-3");

      kubectl.ok("scale", "deployment", "web", "--replicas=10");
      Await.until("10 Running pods", AWAIT, () -> runningPods(kubectl), p -> p.size() == 10);
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      kubectl.ok("scale", "deployment", "web", "--replicas=2");
      Await.until("2 Running pods", AWAIT, () -> runningPods(kubectl), p -> p.size() == 2);

      kubectl.ok("set", "image", "deployment/web", "nginx=nginx:1.27");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      Await.until("2 Running pods of nginx:1.27", AWAIT,
          () -> images(runningPods(kubectl)), i -> i.equals(List.of("nginx:1.27", "nginx:1.27")));
      assertThat(json(kubectl, "get", "deployment", "web").path("status").path("updatedReplicas").asInt()).isEqualTo(2);

      kubectl.ok("rollout", "undo", "deployment/web");
      kubectl.ok("rollout", "status", "deployment/web", "--timeout=60s");
      Await.until("2 Running pods of nginx", AWAIT,
          () -> images(runningPods(kubectl)), i -> i.equals(List.of("nginx", "nginx")));

      assertThat(json(kubectl, "get", "replicasets", "-l", "app=web").path("items")).hasSize(2);
      kubectl.ok("delete", "deployment", "web");
      Await.until("no ReplicaSets of web", AWAIT,
          () -> json(kubectl, "get", "replicasets", "-l", "app=web").path("items").size(),
          n -> n == 0);
      Await.until("no pods of web", AWAIT,
          () -> json(kubectl, "get", "pods", "-l", "app=web").path("items").size(), n -> n == 0);

      Set<String> reasons = new TreeSet<>();
      json(kubectl, "get", "events").path("items").forEach(e -> reasons.add(e.path("reason").asText()));
      assertThat(reasons).contains("ScalingReplicaSet", "SuccessfulCreate", "Scheduled");
    }
  }

  private static List<String> images(List<JsonNode> pods) {
    return pods.stream().map(p -> p.path("spec").path("containers").path(0).path("image").asText()).toList();
  }
}

package io.listwatch.demo;

import static io.listwatch.demo.DemoCluster.AWAIT;
import static io.listwatch.demo.DemoCluster.json;
import static io.listwatch.demo.DemoCluster.readyNodes;
import static io.listwatch.demo.DemoCluster.runningPods;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.KubeClient;
import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.controllers.nodelifecycle.NodeLifecycleController;
import io.listwatch.nodeagent.NodeAgent;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node of the demo fails and comes back, seen with the real {@code kubectl}: the node agent
 * of {@code node-2} is stopped, the node lifecycle controller marks the node NotReady and taints
 * it unreachable, evicts its pod, and the ReplicaSet replaces the pod on another node; the agent
 * restarted, the node is Ready again and untainted. The timings are shortened (a 3 s lease
 * renewed every second, a 3 s grace period, a 2 s eviction timeout) so that this takes seconds
 * rather than the minutes of kube's defaults.
 */
@EndToEnd
class DemoNodeFailureTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** How long the cluster may take to reach a state the test waits for. */

  /** The demo's controllers, with a node lifecycle controller that notices a lost node in seconds. */
  private static List<ControllerSet.Entry> fastControllers() {
    List<ControllerSet.Entry> entries = new ArrayList<>();
    for (ControllerSet.Entry e : ControllerSet.defaults()) {
      entries.add(!e.name().equals("nodelifecycle") ? e : new ControllerSet.Entry(e.name(), e.workers(),
          ctx -> new NodeLifecycleController(ctx, new NodeLifecycleController.Settings(
              Duration.ofMillis(500), Duration.ofSeconds(3), Duration.ofSeconds(2)))));
    }
    assertThat(entries).extracting(ControllerSet.Entry::name).contains("nodelifecycle");
    return entries;
  }

  @Test
  void nodeAgentStopped_nodeNotReadyTaintedAndPodReplacedElsewhere_restarted_nodeReadyAgain(@TempDir Path dir)
      throws Exception {
    assertThat(Kubectl.binary()).as("kubectl on PATH").isPresent();
    Map<String, AutoCloseable> agents = new ConcurrentHashMap<>();
    AtomicReference<KubeClient> demoClient = new AtomicReference<>();
    NodeAgentLauncher launcher = (client, nodeName, podCidr, manifestDir) -> {
      demoClient.set(client);
      NodeAgent agent = NodeAgent.builder(client, nodeName).podCidr(podCidr).manifestDir(manifestDir)
          .lease(Duration.ofSeconds(3), Duration.ofSeconds(1)).statusUpdatePeriod(Duration.ofSeconds(1)).build();
      agent.start();
      agents.put(nodeName, agent);
      return agent;
    };
    AutoCloseable restarted = null;
    try (Demo demo = Demo.start(0, null, dir.resolve("kubeconfig.yaml"), 3, fastControllers(), launcher)) {
      Kubectl kubectl = DemoCluster.kubectl(demo.kubeconfig(), dir);
      Await.until("3 Ready nodes", AWAIT, () -> readyNodes(kubectl), n -> n.size() == 3);

      ObjectNode web = (ObjectNode) JSON.readTree(kubectl.ok("create", "deployment", "web", "--image=nginx",
          "--replicas=3", "--dry-run=client", "-o", "json").stdout());
      ((ObjectNode) web.path("spec").path("template").path("spec")).put("terminationGracePeriodSeconds", 1);
      // the pods leave a lost node after 2 s (admission gives a pod without its own toleration kube's 300 s)
      ((ObjectNode) web.path("spec").path("template").path("spec")).putArray("tolerations").addObject()
          .put("key", NodeLifecycleController.UNREACHABLE_TAINT).put("operator", "Exists").put("effect", "NoExecute")
          .put("tolerationSeconds", 2);
      kubectl.ok("create", "-f", kubectl.file("web.json", JSON.writeValueAsString(web)).toString());
      List<JsonNode> pods = Await.until("3 Running pods", AWAIT, () -> runningPods(kubectl), p -> p.size() == 3);
      assertThat(nodeNames(pods)).as("one pod on each node").containsExactlyInAnyOrder("node-1", "node-2", "node-3");
      String lostPod = pods.stream().filter(p -> p.path("spec").path("nodeName").asText().equals("node-2"))
          .findFirst().orElseThrow().path("metadata").path("name").asText();

      // node-2's agent stops: no more lease renewals, no more status
      agents.get("node-2").close();

      Await.until("node-2 Ready condition Unknown", AWAIT, () -> readyStatus(kubectl, "node-2"), "Unknown"::equals);
      assertThat(kubectl.ok("get", "node", "node-2", "--no-headers").stdout()).as("kubectl get node node-2")
          .contains("NotReady");
      Await.until("node-2 tainted unreachable", AWAIT, () -> taintKeys(kubectl, "node-2"),
          k -> k.contains(NodeLifecycleController.UNREACHABLE_TAINT));
      List<JsonNode> replaced = Await.until("3 Running pods, none on node-2", AWAIT, () -> runningPods(kubectl),
          p -> p.size() == 3 && !nodeNames(p).contains("node-2"));
      assertThat(nodeNames(replaced)).containsOnly("node-1", "node-3");
      assertThat(replaced).extracting(p -> p.path("metadata").path("name").asText()).doesNotContain(lostPod);
      Kubectl.Result lost = kubectl.run("get", "pod", lostPod, "-o", "json");
      assertThat(lost.exitCode() != 0 || JSON.readTree(lost.stdout()).path("metadata").has("deletionTimestamp"))
          .as("node-2's pod is evicted: gone or being deleted; %s", lost).isTrue();

      // node-2's agent is started again: it renews its lease and reports Ready; the taint goes
      restarted = launcher.start(demoClient.get(), "node-2", "10.244.2.0/24", demo.manifestDir("node-2"));
      Await.until("node-2 Ready", AWAIT, () -> readyStatus(kubectl, "node-2"), "True"::equals);
      Await.until("node-2 untainted", AWAIT, () -> taintKeys(kubectl, "node-2"),
          k -> !k.contains(NodeLifecycleController.UNREACHABLE_TAINT));
      Await.until("3 Ready nodes again", AWAIT, () -> readyNodes(kubectl), n -> n.size() == 3);
      Await.until("node-2's evicted pod deleted", AWAIT,
          () -> kubectl.run("get", "pod", lostPod).exitCode(), c -> c != 0);
      assertThat(runningPods(kubectl)).hasSize(3);
    } finally {
      if (restarted != null) {
        restarted.close();
      }
    }
  }

  /** The Ready condition's status of {@code node}. */
  private static String readyStatus(Kubectl kubectl, String node) {
    for (JsonNode c : json(kubectl, "get", "node", node).path("status").path("conditions")) {
      if (c.path("type").asText().equals("Ready")) {
        return c.path("status").asText();
      }
    }
    return "";
  }

  private static List<String> taintKeys(Kubectl kubectl, String node) {
    List<String> keys = new ArrayList<>();
    json(kubectl, "get", "node", node).path("spec").path("taints").forEach(t -> keys.add(t.path("key").asText()));
    return keys;
  }

  private static List<String> nodeNames(List<JsonNode> pods) {
    return pods.stream().map(p -> p.path("spec").path("nodeName").asText()).toList();
  }
}

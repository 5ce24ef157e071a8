package io.listwatch.controllers.nodelifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.nodeagent.NodeAgent;
import io.listwatch.server.ApiServer;
import io.listwatch.client.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node agent stopped is marked NotReady and its pods evicted; restarted, its node is Ready
 * again and untainted. Short timings on the system clock.
 */
@ExtendWith(ApiServerExtension.class)
class NodeLifecycleEndToEndTest {

  /** How long the controllers and the node agent may take for what a test waits for. */
  private static final Duration BOUND = Duration.ofSeconds(30);

  private static String ready(ResourceClient<DynamicObject> nodes) {
    DynamicObject node = nodes.get("", "lc-node").orElseThrow();
    for (var c : node.get("status", "conditions").orElseThrow()) {
      if (c.path("type").asText().equals("Ready")) {
        return c.path("status").asText();
      }
    }
    return "";
  }

  private static NodeAgent agent(KubeClient client) {
    return NodeAgent.builder(client, "lc-node").podCidr("10.250.0.0/24").containerStartDelay(Duration.ZERO)
        .lease(Duration.ofSeconds(2), Duration.ofMillis(300)).build();
  }

  @Test
  void stoppedAgent_isMarkedNotReady_andItsPodsEvicted_restartedIsReadyAgain(ApiServer server) throws Exception {
    try (KubeClient client = KubeClient.create(Config.forUrl(server.url()));
        SharedInformerFactory informers = SharedInformerFactory.builder(client).build()) {
      ResourceClient<DynamicObject> nodes = client.dynamic(ResourceType.NODES);
      ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
      NodeLifecycleController controller = new NodeLifecycleController(
          new ControllerContext(client, informers, EventRecorder.DISCARD, Clock.system()),
          new NodeLifecycleController.Settings(Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(1)));
      try (controller) {
        NodeAgent first = agent(client);
        first.start();
        informers.start();
        controller.run(1);
        pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"lc-web\","
            + "\"namespace\":\"default\"},\"spec\":{\"nodeName\":\"lc-node\",\"terminationGracePeriodSeconds\":3,"
            // its own toleration of the unreachable taint: admission gives a pod without one kube's 300 s
            + "\"tolerations\":[{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":1}],"
            + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
        Await.until("pod Running", BOUND, () -> pods.get("default", "lc-web")
            .map(p -> p.get("status", "phase").map(n -> n.asText()).orElse("").equals("Running")).orElse(false));
        assertThat(ready(nodes)).isEqualTo("True");

        first.close();
        Await.until("node NotReady", BOUND, () -> ready(nodes).equals("Unknown"));
        Await.until("node tainted unreachable", BOUND, () -> nodes.get("", "lc-node").orElseThrow()
            .get("spec", "taints").map(t -> t.toString().contains("node.kubernetes.io/unreachable")).orElse(false));
        Await.until("pod evicted", BOUND, () -> pods.get("default", "lc-web")
            .map(p -> p.get("metadata", "deletionTimestamp").isPresent()).orElse(true));

        try (NodeAgent second = agent(client)) {
          second.start();
          assertThat(ready(nodes)).isEqualTo("True");
          Await.until("taints removed", BOUND,
              () -> nodes.get("", "lc-node").orElseThrow().get("spec", "taints").isEmpty());
          Await.until("evicted pod deleted by the restarted agent", BOUND,
              () -> pods.get("default", "lc-web").isEmpty());
        }
      }
    }
  }
}

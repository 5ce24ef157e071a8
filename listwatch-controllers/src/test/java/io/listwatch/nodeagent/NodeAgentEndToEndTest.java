package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.Config;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.client.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The agent against the in-process API server, on the system clock. */
@ExtendWith(ApiServerExtension.class)
class NodeAgentEndToEndTest {

  @TempDir
  Path manifests;

  private KubeClient client;
  private ResourceClient<DynamicObject> pods;
  private NodeAgent agent;
  private String nodeName;
  private static int counter;

  @BeforeEach
  void start(ApiServer server) {
    client = KubeClient.create(Config.forUrl(server.url()));
    pods = client.dynamic(ResourceType.PODS);
    nodeName = "node-" + (++counter);
    agent = NodeAgent.builder(client, nodeName).manifestDir(manifests).podCidr("10.244." + counter + ".0/24")
        .nodeIp("192.168.0." + counter).containerStartDelay(Duration.ZERO).manifestCheckPeriod(Duration.ofSeconds(2))
        .build();
    agent.start();
  }

  @AfterEach
  void stop() {
    agent.close();
    client.close();
  }

  private DynamicObject pod(String name, String extraSpec) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\"},\"spec\":{\"nodeName\":\"" + nodeName + "\"" + extraSpec
        + ",\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}");
  }

  private static String text(DynamicObject o, String... path) {
    return o.get(path).map(n -> n.asText()).orElse("");
  }

  /** Waits (bounded) until {@code probe} gives a value. */
  private static <T> T await(String what, Supplier<Optional<T>> probe) {
    return Await.until(what, Duration.ofSeconds(30), probe::get, Optional::isPresent).orElseThrow();
  }

  @Test
  void start_registersTheReadyNode_andItsLease() {
    DynamicObject node = client.dynamic(ResourceType.NODES).get("", nodeName).orElseThrow();
    assertThat(node.get("status", "conditions").orElseThrow().toString())
        .contains("\"type\":\"Ready\",\"status\":\"True\"");
    assertThat(text(node, "status", "allocatable", "pods")).isEqualTo("110");
    assertThat(text(node, "spec", "podCIDR")).isEqualTo("10.244." + counter + ".0/24");

    DynamicObject lease = client.dynamic(ResourceType.LEASES).get("kube-node-lease", nodeName).orElseThrow();
    assertThat(text(lease, "spec", "holderIdentity")).isEqualTo(nodeName);
    assertThat(text(lease, "spec", "leaseDurationSeconds")).isEqualTo("40");
    assertThat(lease.get("metadata", "ownerReferences").orElseThrow().get(0).path("uid").asText())
        .isEqualTo(node.uid());
  }

  @Test
  void boundPod_goesRunningWithAnIpOfTheNodesCidr_andGoesAfterItsGracePeriod() throws Exception {
    pods.create(pod("web", ""));

    DynamicObject running = await("web Running", () -> pods.get("default", "web")
        .filter(p -> text(p, "status", "phase").equals("Running")));
    assertThat(text(running, "status", "podIP")).startsWith("10.244." + counter + ".");
    assertThat(text(running, "status", "hostIP")).isEqualTo("192.168.0." + counter);

    pods.delete("default", "web", new DeleteOptions(2L, "", "", ""));
    assertThat(pods.get("default", "web")).hasValueSatisfying(
        p -> assertThat(text(p, "metadata", "deletionTimestamp")).isNotEmpty());
    await("web gone", () -> pods.get("default", "web").isEmpty() ? Optional.of(true) : Optional.empty());
  }

  @Test
  void manifestInTheDir_appearsAsAMirrorPod_isRecreatedIfDeleted_andGoesWithTheFile() throws Exception {
    Files.writeString(manifests.resolve("static-web.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata:
          name: static-web
        spec:
          containers:
          - name: web
            image: nginx
        """);
    String name = "static-web-" + nodeName;

    DynamicObject mirror = await("mirror pod Running", () -> pods.get("default", name)
        .filter(p -> text(p, "status", "phase").equals("Running")));
    assertThat(mirror.annotations()).containsKey(PodSources.CONFIG_MIRROR);
    assertThat(mirror.annotations().get(PodSources.CONFIG_MIRROR)).isEqualTo(mirror.annotations()
        .get(PodSources.CONFIG_HASH));

    pods.delete("default", name, DeleteOptions.immediate(mirror.uid()));
    DynamicObject recreated = await("mirror pod recreated", () -> pods.get("default", name)
        .filter(p -> !p.uid().equals(mirror.uid())));
    assertThat(recreated.annotations()).containsKey(PodSources.CONFIG_MIRROR);

    Files.delete(manifests.resolve("static-web.yaml"));
    await("mirror pod gone", () -> pods.get("default", name).isEmpty() ? Optional.of(true) : Optional.empty());
    assertThat(agent.seenAllSources()).isTrue();
  }
}

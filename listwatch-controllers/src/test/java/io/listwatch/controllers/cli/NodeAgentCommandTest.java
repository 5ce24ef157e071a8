package io.listwatch.controllers.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./listwatch node-agent} run in-process against the in-process server. */
class NodeAgentCommandTest {

  private static ApiServer server;
  private static KubeClient client;
  @TempDir
  static Path dir;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    server = ApiServer.builder().build().start();
    client = KubeClient.create(Config.forUrl(server.url()));
    kubeconfig = CommandTests.writeKubeconfig(dir.resolve("kubeconfig.yaml"), server.url());
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void registersTheNode_andRunsAStaticPodFromTheManifestDir_untilStopped() throws Exception {
    Path manifests = Files.createDirectories(dir.resolve("manifests"));
    Files.writeString(manifests.resolve("web.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec:
          containers:
          - {name: web, image: nginx}
        """);
    CompletableFuture<Void> stop = new CompletableFuture<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(
        new NodeAgentCommand(stop, new PrintStream(out, true, StandardCharsets.UTF_8))).execute(
        "--kubeconfig", kubeconfig.toString(), "--node-name", "cli-node", "--manifest-dir", manifests.toString(),
        "--pod-cidr", "10.99.0.0/24"));
    try {
      Await.until("the node registers", CommandTests.BOUND,
          () -> client.dynamic(ResourceType.NODES).get("", "cli-node").isPresent());
      // the static pod's mirror, named after the node, runs with an IP from the given CIDR
      Await.until("the mirror pod runs with an IP of the CIDR", CommandTests.BOUND,
          () -> client.dynamic(ResourceType.PODS).get("default", "web-cli-node")
          .flatMap(p -> p.get("status", "podIP")).map(ip -> ip.asText().startsWith("10.99.0.")).orElse(false));
      DynamicObject mirror = client.dynamic(ResourceType.PODS).get("default", "web-cli-node").orElseThrow();
      assertThat(mirror.get("metadata", "annotations", "kubernetes.io/config.mirror")).isPresent();
      assertThat(mirror.get("spec", "nodeName").map(n -> n.asText())).hasValue("cli-node");
    } finally {
      stop.complete(null);
    }
    assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("node cli-node registered");
  }

  @Test
  void aMissingNodeName_isRefusedWithStatus2() {
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new NodeAgentCommand(new CompletableFuture<>(), System.out));
    cmd.setErr(new PrintWriter(err, true));
    assertThat(cmd.execute("--kubeconfig", kubeconfig.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--node-name");
  }

}

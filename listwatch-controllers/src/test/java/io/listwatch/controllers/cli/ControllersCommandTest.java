package io.listwatch.controllers.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.controllers.RecordingController;
import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./listwatch controllers} run in-process against the in-process server. */
class ControllersCommandTest {

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
  void leaderElect_runsTheControllersWhileHoldingTheLease_andReleasesItOnStop() throws Exception {
    List<String> log = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> stop = new CompletableFuture<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<ControllerSet.Entry> entries = List.of(new ControllerSet.Entry("recorder", 2, ctx -> new RecordingController("recorder", log)));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(
        new ControllersCommand(entries, stop, new PrintStream(out, true, StandardCharsets.UTF_8))).execute(
        "--kubeconfig", kubeconfig.toString(), "--leader-elect", "--leader-elect-identity", "me",
        "--leader-elect-resource-namespace", "default", "--leader-elect-lease-duration", "3",
        "--leader-elect-renew-deadline", "2", "--leader-elect-retry-period", "1"));
    try {
      Await.until("the recorder runs", CommandTests.BOUND, () -> log.contains("recorder run 2"));
      assertThat(holder()).isEqualTo("me");
    } finally {
      stop.complete(null);
    }
    assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(log).containsExactly("recorder run 2", "recorder closed");
    assertThat(holder()).isEmpty(); // released: a standby need not wait for expiry
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("campaigning for lease default/listwatch-controllers as me");
  }

  @Test
  void withoutLeaderElection_runsTheControllersUntilStopped() throws Exception {
    List<String> log = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> stop = new CompletableFuture<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<ControllerSet.Entry> entries = List.of(new ControllerSet.Entry("recorder", 1, ctx -> new RecordingController("recorder", log)));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(
        new ControllersCommand(entries, stop, new PrintStream(out, true, StandardCharsets.UTF_8)))
        .execute("--kubeconfig", kubeconfig.toString()));
    Await.until("the recorder runs", CommandTests.BOUND, () -> log.contains("recorder run 1"));
    stop.complete(null);
    assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(log).containsExactly("recorder run 1", "recorder closed");
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("running controllers: [recorder]");
  }

  @Test
  void aMissingKubeconfig_isRefusedWithStatus2() {
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new ControllersCommand(List.of(), new CompletableFuture<>(), System.out));
    cmd.setErr(new PrintWriter(err, true));
    assertThat(cmd.execute("--kubeconfig", dir.resolve("nope.yaml").toString())).isEqualTo(2);
    assertThat(err.toString()).startsWith("listwatch controllers: ");
  }

  private static String holder() {
    DynamicObject lease = client.dynamic(ResourceType.LEASES).get("default", "listwatch-controllers").orElseThrow();
    return lease.get("spec", "holderIdentity").map(n -> n.asText()).orElse("");
  }
}

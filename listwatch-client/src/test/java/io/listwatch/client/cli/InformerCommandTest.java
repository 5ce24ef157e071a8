package io.listwatch.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** {@code ./listwatch informer} against the in-process server. */
@ExtendWith(ApiServerExtension.class)
@Timeout(60)
class InformerCommandTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
  private final CountDownLatch stop = new CountDownLatch(1);

  private List<String> lines() {
    synchronized (out) {
      return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
    }
  }

  private void awaitLine(Predicate<String> match) {
    Await.until("a matching line in the output", Duration.ofSeconds(30), this::lines,
        lines -> lines.stream().anyMatch(match));
  }

  private static DynamicObject configMap(String name) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name + "\",\"namespace\":\"default\",\"labels\":{\"app\":\"web\"}}}");
  }

  @Test
  void printsInitialState_sync_changes_andReflectorActivity(ApiServer server) throws Exception {
    try (KubeClient client = KubeClient.create(Config.forUrl(server.url()))) {
      ResourceClient<DynamicObject> configMaps = client.dynamic(ResourceType.CONFIGMAPS);
      configMaps.create(configMap("one"));
      configMaps.create(configMap("other-app-ignored"));
      configMaps.mergePatch("default", "other-app-ignored", "{\"metadata\":{\"labels\":{\"app\":\"db\"}}}");

      CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() ->
          new CommandLine(new InformerCommand(out, stop)).execute("--server", server.url(),
              "--resource", "configmaps", "-n", "default", "-l", "app=web"));
      try {
        awaitLine(l -> l.startsWith("SYNCED "));
        configMaps.create(configMap("two"));
        configMaps.mergePatch("default", "two", "{\"data\":{\"k\":\"v\"}}");
        configMaps.delete("default", "two");
        awaitLine(l -> l.startsWith("DELETE default/two "));
      } finally {
        stop.countDown(); // the command ends even when an assertion above failed
      }
      assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();

      List<String> lines = lines();
      assertThat(lines).anyMatch(l -> l.matches("ADD default/one rv=\\d+ initial"));
      assertThat(lines).noneMatch(l -> l.contains("other-app-ignored"));
      assertThat(lines).anyMatch(l -> l.matches("SYNCED rv=\\d+ objects=1"));
      assertThat(lines).anyMatch(l -> l.equals("LIST rv=\"0\" reason=initial"));
      assertThat(lines).anyMatch(l -> l.matches("WATCH rv=\\d+ reason=listed"));
      assertThat(lines.stream().filter(l -> l.contains("default/two")).map(l -> l.split(" ")[0]))
          .containsExactly("ADD", "UPDATE", "DELETE");
    }
  }

  @Test
  void unknownResource_exitsWithAClearError(ApiServer server) {
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new InformerCommand(out, stop));
    command.setErr(new PrintWriter(err, true));

    int code = command.execute("--server", server.url(), "--resource", "widgets");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("unknown resource 'widgets'").contains("--api-version");
  }

  @Test
  void resourceArgument_acceptsGroups_andCustomResources() {
    assertThat(ResourceArgument.parse("deployments.apps", null, null, false))
        .isEqualTo(ResourceType.DEPLOYMENTS);
    assertThat(ResourceArgument.parse("widgets.example.com", "example.com/v1", "Widget", false))
        .isEqualTo(new ResourceType("example.com", "v1", "widgets", "Widget", true));
  }
}

package io.listwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.api.ListOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DemoCommandTest {

  @Test
  void demo_servesHealthzAndTheLivePage_writesAWorkingKubeconfig_printsTheManifestDirs_andStops(@TempDir Path dir) throws Exception {
    CompletableFuture<Demo> started = new CompletableFuture<>();
    CompletableFuture<Void> stop = new CompletableFuture<>();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Path kubeconfig = dir.resolve("kubeconfig.yaml");
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(
        new DemoCommand(started, stop, new PrintStream(printed, true, StandardCharsets.UTF_8)))
        .execute("--port", "0", "--nodes", "1", "--kubeconfig", kubeconfig.toString()));
    try {
      Demo demo = started.get(30, TimeUnit.SECONDS);
      HttpClient http = HttpClient.newHttpClient();
      assertThat(get(http, demo.url() + "/healthz").body()).isEqualTo("ok");
      HttpResponse<String> page = get(http, demo.pageUrl());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
      assertThat(page.body()).contains("<script src=\"/ui/app.js\">");
      assertThat(get(http, demo.url() + "/ui/app.js").body()).contains("watch=1");

      try (KubeClient client = KubeClient.create(Config.fromKubeconfig(kubeconfig, null))) {
        assertThat(client.dynamic(ResourceType.NAMESPACES).list(null, ListOptions.builder().build()).items())
            .extracting(o -> o.name()).contains("default", "kube-system");
      }
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("Watch it live: " + demo.pageUrl())
          .contains("export KUBECONFIG=" + kubeconfig.toAbsolutePath())
          .contains("kubectl create deployment web")
          .contains("node-1: " + demo.manifestDir("node-1"));
      assertThat(demo.manifestDir("node-1")).isDirectory();
    } finally {
      stop.complete(null);
    }
    assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void demo_refusesANegativeNodeCount(@TempDir Path dir) {
    CompletableFuture<Demo> started = new CompletableFuture<>();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cmd = new CommandLine(new DemoCommand(started, new CompletableFuture<>(), System.out));
    cmd.setErr(new java.io.PrintWriter(err, true));
    int code = cmd.execute("--port", "0", "--nodes", "-1", "--kubeconfig", dir.resolve("k").toString());
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("--nodes must be 0 or more");
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }
}

package io.listwatch.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./listwatch server} as a user runs it: a separate JVM that prints where it listens,
 * and on SIGTERM ends open watches normally and keeps every acknowledged write.
 */
class ServerCommandTest {

  private static final Duration BOUND = Duration.ofSeconds(30);
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path dataDir;

  @Test
  void sigterm_endsWatchesNormally_andKeepsWrites() throws Exception {
    String url;
    Process server = start();
    try {
      url = awaitUrl(server);
      assertThat(post(url, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"kept\"}}"))
          .isEqualTo(201);
      HttpResponse<Stream<String>> watch = http.send(HttpRequest.newBuilder(
              URI.create(url + "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0")).build(),
          HttpResponse.BodyHandlers.ofLines());
      Iterator<String> lines = watch.body().iterator();
      assertThat(next(lines)).contains("\"type\":\"ADDED\"").contains("\"name\":\"kept\"");

      server.destroy(); // SIGTERM

      // the stream ends normally (a clean end of the chunked body), not with an I/O error
      CompletableFuture<Boolean> ended = CompletableFuture.supplyAsync(() -> {
        while (lines.hasNext()) {
          lines.next();
        }
        return true;
      });
      assertThat(ended.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(server.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("server exited").isTrue();
    } finally {
      server.destroyForcibly();
    }

    Process again = start();
    try {
      String url2 = awaitUrl(again);
      HttpResponse<String> get = http.send(HttpRequest.newBuilder(
          URI.create(url2 + "/api/v1/namespaces/default/configmaps/kept")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).isEqualTo(200);
    } finally {
      again.destroy();
      again.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS);
      again.destroyForcibly();
    }
  }

  private Process start() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx512m",
        "-cp", System.getProperty("java.class.path"), ServerCommand.class.getName(),
        "--data-dir", dataDir.toString(), "--http-port", "0"))
        .redirectErrorStream(true).start();
  }

  /** Reads the server's output until it prints where it listens. */
  private static String awaitUrl(Process p) throws Exception {
    BlockingQueue<String> out = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          out.add(line);
        }
      } catch (java.io.IOException e) {
        // the process ended
      }
    });
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (System.nanoTime() < deadline) {
      String line = out.poll(1, TimeUnit.SECONDS);
      if (line != null && line.startsWith("listwatch API server listening on ")) {
        return line.substring("listwatch API server listening on ".length()).split(" ")[0];
      }
    }
    throw new AssertionError("the server did not print its address within " + BOUND);
  }

  private int post(String url, String json) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/namespaces/default/configmaps"))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static String next(Iterator<String> lines) throws Exception {
    return CompletableFuture.supplyAsync(() -> lines.hasNext() ? lines.next() : "")
        .get(BOUND.toSeconds(), TimeUnit.SECONDS);
  }
}

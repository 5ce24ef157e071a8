package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The check a kube user runs to see a WebSocket watch by hand: curl with the upgrade headers
 * prints the 101 head and then the raw frames, which carry the event JSON; over plain HTTP and
 * over TLS with the admin certificate. curl (from PATH)
 * runs as a process; it is killed at the end and every wait is bounded.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a backstop: every wait below is bounded more tightly
class CurlWebSocketTest {

  private static final Duration WAIT = Duration.ofSeconds(15);

  private static ApiServer server;

  @BeforeAll
  static void setUp(ApiServer s) {
    server = s;
  }

  /**
   * The command line: {@code curl -i -N --http1.1 -H 'Connection: Upgrade' -H 'Upgrade:
   * websocket' -H 'Sec-WebSocket-Key: ...' -H 'Sec-WebSocket-Version: 13' URL}. For a TLS
   * listener, {@code transportArgs} adds e.g. {@code -k --cert c.pem --key k.pem}.
   */
  static List<String> curlWebSocketWatch(List<String> transportArgs, String url) {
    String key = Base64.getEncoder().encodeToString("sixteen byte key".getBytes(StandardCharsets.US_ASCII));
    List<String> cmd = new ArrayList<>(List.of("curl", "-i", "-N", "-sS", "--http1.1",
        "-H", "Connection: Upgrade", "-H", "Upgrade: websocket",
        "-H", "Sec-WebSocket-Key: " + key, "-H", "Sec-WebSocket-Version: 13"));
    cmd.addAll(transportArgs);
    cmd.add(url);
    return cmd;
  }

  @Test
  void curl_withWebSocketHeaders_gets101_thenFramesWithTheEventJson() throws Exception {
    String ns = "curl-ws";
    post(server, "/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + ns + "\"}}");

    String pods = "/api/v1/namespaces/" + ns + "/pods";
    try (Curl curl = Curl.start(curlWebSocketWatch(List.of(), server.url() + pods + "?watch=true"))) {
      // curl prints the 101 head only together with the first frame: wait for the server instead
      awaitWebSocketWatch(pods);

      post(server, pods, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
          + "\"metadata\":{\"name\":\"curl-pod\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");

      curl.await("the 101 head and a frame with the ADDED event", out -> out.contains("{\"type\":\"ADDED\",\"object\":{")
          && out.contains("\"name\":\"curl-pod\""));
      String out = curl.output();
      assertThat(out).startsWith("HTTP/1.1 101 Switching Protocols");
      assertThat(out).containsIgnoringCase("upgrade: websocket");
      String payload = out.substring(out.indexOf("{\"type\""));
      assertThat(payload).as("the frame ends with the event's newline").contains("}}\n");
    }
  }

  /**
   * The same over TLS, as a kube user runs it against a secure server: {@code curl -ik --http1.1
   * -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Key: ...' -H
   * 'Sec-WebSocket-Version: 13' --cert admin.crt --key admin.key 'https://127.0.0.1:PORT/api/v1/pods?watch=true'}
   * in the server's {@code tls/} directory.
   */
  @Test
  void curlOverTls_withTheAdminCertificate_gets101_thenFramesWithTheEventJson() throws Exception {
    try (ApiServer tls = ApiServer.builder().tls().build().start();
        HttpClient admin = HttpClient.newBuilder().sslContext(tls.clientSslContext("admin", "system:masters"))
            .connectTimeout(WAIT).build()) {
      String ns = "curl-wss";
      post(admin, tls, "/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
          + "\"metadata\":{\"name\":\"" + ns + "\"}}");
      List<String> command = curlWebSocketWatch(List.of("-k", "--cert", "admin.crt", "--key", "admin.key"),
          tls.url() + "/api/v1/pods?watch=true");
      try (Curl curl = Curl.start(tls.dataDir().resolve("tls"), command)) {
        awaitWebSocketWatch(tls, "/api/v1/pods");

        post(admin, tls, "/api/v1/namespaces/" + ns + "/pods", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
            + "\"metadata\":{\"name\":\"wss-pod\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");

        curl.await("the 101 head and a frame with the ADDED event", out -> out.contains("{\"type\":\"ADDED\"")
            && out.contains("\"name\":\"wss-pod\""));
        String out = curl.output();
        assertThat(out).startsWith("HTTP/1.1 101 Switching Protocols");
        assertThat(out).containsIgnoringCase("upgrade: websocket");
        assertThat(out.substring(out.indexOf("{\"type\":\"ADDED\""))).contains("\"namespace\":\"" + ns + "\"");
      }
    }
  }

  /** Waits until the server serves a WebSocket watch on {@code path}. */
  private static void awaitWebSocketWatch(String path) {
    awaitWebSocketWatch(server, path);
  }

  private static void awaitWebSocketWatch(ApiServer server, String path) {
    Await.until("the server serves a WebSocket watch on " + path, WAIT, server::webSocketWatches,
        watches -> watches.stream().anyMatch(p -> p.startsWith(path + "?")));
  }

  private static void post(ApiServer s, String path, String json) throws Exception {
    try (HttpClient client = HttpClient.newHttpClient()) {
      post(client, s, path, json);
    }
  }

  private static void post(HttpClient client, ApiServer s, String path, String json) throws Exception {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(s.url() + path)).timeout(WAIT)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("POST %s: %s", path, r.body()).isEqualTo(201);
  }

  /** A running curl whose stdout is collected by a daemon thread; closing kills it. */
  private static final class Curl implements AutoCloseable {
    private final Process process;
    @GuardedBy("stdout")
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final Thread reader;

    private Curl(Process process) {
      this.process = process;
      this.reader = Thread.ofPlatform().daemon(true).name("curl-stdout").start(this::read);
    }

    static Curl start(List<String> command) {
      return start(Path.of("."), command);
    }

    /** Starts curl in {@code dir} (where relative certificate paths are found). */
    static Curl start(Path dir, List<String> command) {
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
      // no proxy from the machine running the tests
      List.of("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy")
          .forEach(pb.environment()::remove);
      try {
        Process p = pb.start();
        p.getOutputStream().close();
        return new Curl(p);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run curl (is it on PATH?)", e);
      }
    }

    private void read() {
      byte[] buf = new byte[8192];
      try (InputStream in = process.getInputStream()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          synchronized (stdout) {
            stdout.write(buf, 0, n);
            stdout.notifyAll();
          }
        }
      } catch (IOException e) {
        // the process was killed
      }
    }

    /** Everything curl printed so far (frame headers are binary: read as Latin-1). */
    String output() {
      synchronized (stdout) {
        return stdout.toString(StandardCharsets.ISO_8859_1);
      }
    }

    void await(String what, Predicate<String> condition) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      synchronized (stdout) {
        while (!condition.test(output())) {
          long left = deadline - System.nanoTime();
          if (left <= 0 || (!process.isAlive() && !reader.isAlive())) {
            fail("no %s from curl within %s (alive: %s); output:%n%s", what, WAIT, process.isAlive(), output());
          }
          TimeUnit.NANOSECONDS.timedWait(stdout, left);
        }
      }
    }

    @Override
    public void close() {
      process.destroyForcibly();
      try {
        process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import io.listwatch.api.ListOptions;
import io.listwatch.client.Config;
import io.listwatch.client.ResourceType;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A list whose body stops arriving fails after the request timeout and replaces the connection,
 * instead of blocking its reader for good.
 */
@Timeout(60)
class StalledBodyTest {

  private HttpServer server;
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/api/v1/namespaces/x/configmaps", exchange -> {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, 0); // chunked
      OutputStream out = exchange.getResponseBody();
      out.write("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",".getBytes(StandardCharsets.UTF_8));
      out.flush();
      try {
        release.await(); // and then nothing more
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.stop(0);
  }

  @Test
  void aListWhoseBodyStops_failsAfterTheRequestTimeout_andReplacesTheConnection() {
    Config config = Config.builder("http://127.0.0.1:" + server.getAddress().getPort())
        .requestTimeout(Duration.ofMillis(400)).build();
    try (HttpKubeClient client = HttpKubeClient.create(config)) {
      long start = System.nanoTime();
      UncheckedIOException e = catchThrowableOfType(UncheckedIOException.class,
          () -> client.dynamic(ResourceType.CONFIGMAPS).list("x", ListOptions.builder().build()));

      assertThat(e).hasMessageContaining("/api/v1/namespaces/x/configmaps")
          .hasMessageContaining("no bytes of the response body for 400 ms; the connection is replaced");
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("ended by the guard, not the test's timeout")
          .isLessThan(30_000);
      assertThat(client.connectionReplacements()).isEqualTo(1);
    }
  }
}

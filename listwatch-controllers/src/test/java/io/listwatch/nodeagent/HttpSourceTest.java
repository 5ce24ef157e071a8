package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.testsupport.Await;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpSourceTest {

  /** How long the source's poll may take to reach the test. */
  private static final Duration BOUND = Duration.ofSeconds(20);

  private HttpServer server;
  private volatile String body = "";
  private volatile String etag = "\"v1\"";
  private final List<String> ifNoneMatch = new CopyOnWriteArrayList<>();
  private final List<PodUpdate> sets = new ArrayList<>();
  private URI url;

  @BeforeEach
  void startServer() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/pods", exchange -> {
      String sent = exchange.getRequestHeaders().getFirst("If-None-Match");
      ifNoneMatch.add(sent == null ? "" : sent);
      if (etag.equals(sent)) {
        exchange.sendResponseHeaders(304, -1);
      } else {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("ETag", etag);
        exchange.sendResponseHeaders(200, b.length);
        exchange.getResponseBody().write(b);
      }
      exchange.close();
    });
    server.start();
    url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/pods");
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private static String podList(String... names) {
    StringBuilder items = new StringBuilder();
    for (String n : names) {
      items.append(items.isEmpty() ? "" : ",").append("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"").append(n)
          .append("\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
    }
    return "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[" + items + "]}";
  }

  @Test
  void poll_sendsTheSet_thenSendsNothingWhileNotModified_thenTheNewSet() {
    body = podList("a", "b");
    try (HttpSource source = new HttpSource(url, "n1", sets::add, Duration.ofSeconds(20), new FakeClock())) {
      assertThat(source.poll()).isTrue();
      assertThat(source.poll()).isFalse();
      body = podList("a");
      etag = "\"v2\"";
      assertThat(source.poll()).isTrue();
    }
    assertThat(ifNoneMatch).containsExactly("", "\"v1\"", "\"v1\"");
    assertThat(sets).map(PodUpdate::podNames)
        .containsExactly(List.of("default/a-n1", "default/b-n1"), List.of("default/a-n1"));
    assertThat(sets).allMatch(u -> u.op() == PodOperation.SET && u.source().equals(PodSources.HTTP));
  }

  @Test
  void badManifest_keepsTheSet() {
    body = podList("a");
    try (HttpSource source = new HttpSource(url, "n1", sets::add, Duration.ofSeconds(20), new FakeClock())) {
      source.poll();
      body = "{\"kind\":\"ConfigMap\"}";
      etag = "\"v2\"";
      assertThat(source.poll()).isFalse();
    }
    assertThat(sets).hasSize(1);
  }

  @Test
  void start_pollsAgainEachPeriodOfTheClock() throws Exception {
    body = podList("a");
    FakeClock clock = new FakeClock();
    List<PodUpdate> seen = new CopyOnWriteArrayList<>();
    try (HttpSource source = new HttpSource(url, "n1", seen::add, Duration.ofSeconds(20), clock)) {
      source.start();
      Await.until("the first poll, and the next one scheduled", BOUND,
          () -> seen.size() == 1 && clock.pendingTasks() == 1);
      body = podList("a", "b");
      etag = "\"v2\"";
      clock.advance(Duration.ofSeconds(20));
      Await.until("the second poll", BOUND, () -> seen.size() == 2);
    }
    assertThat(seen.get(1).podNames()).containsExactly("default/a-n1", "default/b-n1");
  }

}

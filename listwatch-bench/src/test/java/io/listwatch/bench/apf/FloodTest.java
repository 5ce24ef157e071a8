package io.listwatch.bench.apf;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The heavy user's answer to a 429: at once (the worst client), or once the answer's
 * {@code Retry-After} has passed (client-go's).
 */
class FloodTest {

  private HttpServer server;
  /** When each request arrived, in nanoseconds. */
  private final List<Long> arrivals = new CopyOnWriteArrayList<>();
  private final CountDownLatch two = new CountDownLatch(2);

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      arrivals.add(System.nanoTime());
      two.countDown();
      exchange.getResponseHeaders().set("Retry-After", "1");
      exchange.sendResponseHeaders(429, -1);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void a429_isRetried_afterItsRetryAfter_onlyWhenAsked(boolean retryAfter) throws Exception {
    URI collection = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/configmaps");
    try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      Flood flood = Flood.start(client, collection, "t", 1, 0, false, retryAfter);
      try {
        assertThat(two.await(30, TimeUnit.SECONDS)).as("a second request").isTrue();
      } finally {
        flood.close();
      }
      assertThat(flood.rejected.get()).isPositive();
    }
    long gapMillis = TimeUnit.NANOSECONDS.toMillis(arrivals.get(1) - arrivals.get(0));
    if (retryAfter) {
      assertThat(gapMillis).as("the second request waited out Retry-After: 1").isGreaterThanOrEqualTo(1000);
    } else {
      assertThat(gapMillis).as("the second request was sent at once").isLessThan(1000);
    }
  }
}

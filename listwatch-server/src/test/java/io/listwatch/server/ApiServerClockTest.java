package io.listwatch.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.clock.FakeClock;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ApiServerClockTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeClock clock = new FakeClock(Instant.parse("2030-05-06T07:08:09.500Z"));
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(WAIT).build();

  @Test
  void creationTimestamp_comesFromTheInjectedClock() throws Exception {
    try (ApiServer server = ApiServer.builder().clock(clock).build().start()) {
      HttpResponse<String> created = http.send(HttpRequest.newBuilder(
              URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
          .timeout(WAIT)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}"))
          .build(), HttpResponse.BodyHandlers.ofString());

      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      assertThat(JSON.readTree(created.body()).at("/metadata/creationTimestamp").asText())
          .isEqualTo("2030-05-06T07:08:09Z");
    }
  }

  @Test
  void watchTimeout_isMeasuredOnTheInjectedClock() throws Exception {
    try (ApiServer server = ApiServer.builder().clock(clock).build().start()) {
      // from a version the cache has: a watch "from now" may wait for the cache to catch up with
      // the server's startup writes, and that wait is measured on the clock this test moves
      HttpResponse<String> list = http.send(HttpRequest.newBuilder(
              URI.create(server.url() + "/api/v1/namespaces/default/configmaps")).timeout(WAIT).build(),
          HttpResponse.BodyHandlers.ofString());
      String version = JSON.readTree(list.body()).at("/metadata/resourceVersion").asText();
      HttpResponse<InputStream> watch = http.send(HttpRequest.newBuilder(
              URI.create(server.url() + "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=600"
                  + "&resourceVersion=" + version))
          .build(), HttpResponse.BodyHandlers.ofInputStream());
      assertThat(watch.statusCode()).isEqualTo(200);
      CompletableFuture<byte[]> body = CompletableFuture.supplyAsync(() -> {
        try (InputStream in = watch.body()) {
          return in.readAllBytes();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });

      clock.advance(Duration.ofSeconds(601));

      // ten minutes of the fake clock end the watch within the server's one-second tick
      byte[] rest = body.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      JsonNode events = JSON.readTree("[" + new String(rest).trim().replace("\n", ",") + "]");
      assertThat(events).as("the stream ends cleanly, without an ERROR event").isEmpty();
    }
  }

  @Test
  void serviceAccountTokens_areIssuedOnTheInjectedClock() throws Exception {
    try (ApiServer server = ApiServer.builder().clock(clock).build().start()) {
      String sa = "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"robot\"}}";
      HttpResponse<String> created = http.send(HttpRequest.newBuilder(
              URI.create(server.url() + "/api/v1/namespaces/default/serviceaccounts"))
          .timeout(WAIT).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(sa)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

      HttpResponse<String> token = http.send(HttpRequest.newBuilder(
              URI.create(server.url() + "/api/v1/namespaces/default/serviceaccounts/robot/token"))
          .timeout(WAIT).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"apiVersion\":\"authentication.k8s.io/v1\","
              + "\"kind\":\"TokenRequest\",\"spec\":{\"expirationSeconds\":3600}}")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(token.statusCode()).as(token.body()).isEqualTo(201);
      assertThat(JSON.readTree(token.body()).at("/status/expirationTimestamp").asText())
          .isEqualTo("2030-05-06T08:08:09Z");
    }
  }
}

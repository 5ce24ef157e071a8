package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** HTTP/2 without TLS (h2c): the JDK client upgrades a plain connection and multiplexes on it. */
@ExtendWith(ApiServerExtension.class)
class H2cTest {

  private final HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
      .connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void upgradedConnection_servesListsAndWritesOverHttp2(ApiServer server) throws Exception {
    HttpResponse<String> list = http2.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).contains("\"name\":\"default\"");

    HttpResponse<String> created = http2.send(HttpRequest.newBuilder(
            URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"over-h2\"}}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.version()).isEqualTo(HttpClient.Version.HTTP_2);
  }

  @Test
  void watchesShareOneHttp2Connection_andEachStreamsItsEvents(ApiServer server) throws Exception {
    // the first request upgrades the connection; later ones are streams on it
    http2.send(HttpRequest.newBuilder(URI.create(server.url() + "/version")).build(),
        HttpResponse.BodyHandlers.discarding());
    String watchUrl = server.url() + "/api/v1/namespaces/default/secrets?watch=true&resourceVersion=0";
    CompletableFuture<HttpResponse<Stream<String>>> a = http2.sendAsync(
        HttpRequest.newBuilder(URI.create(watchUrl)).build(), HttpResponse.BodyHandlers.ofLines());
    CompletableFuture<HttpResponse<Stream<String>>> b = http2.sendAsync(
        HttpRequest.newBuilder(URI.create(watchUrl)).build(), HttpResponse.BodyHandlers.ofLines());
    HttpResponse<Stream<String>> ra = a.get(10, TimeUnit.SECONDS);
    HttpResponse<Stream<String>> rb = b.get(10, TimeUnit.SECONDS);
    assertThat(ra.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(rb.version()).isEqualTo(HttpClient.Version.HTTP_2);

    http2.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/secrets"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s1\"}}")).build(),
        HttpResponse.BodyHandlers.discarding());

    assertThat(firstLine(ra)).startsWith("{\"type\":\"ADDED\"").contains("\"name\":\"s1\"");
    assertThat(firstLine(rb)).startsWith("{\"type\":\"ADDED\"").contains("\"name\":\"s1\"");
    ra.body().close();
    rb.body().close();
  }

  @Test
  void bodyOver3MiB_onAnHttp2Stream_is413Status_andTheConnectionServesOn(ApiServer server) throws Exception {
    http2.send(HttpRequest.newBuilder(URI.create(server.url() + "/version")).build(),
        HttpResponse.BodyHandlers.discarding());
    String big = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"too-big\"},"
        + "\"data\":{\"blob\":\"" + "x".repeat(3 * 1024 * 1024 + 100) + "\"}}";
    HttpResponse<String> refused = http2.send(HttpRequest.newBuilder(
            URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(15))
        .POST(HttpRequest.BodyPublishers.ofString(big)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(refused.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(refused.statusCode()).isEqualTo(413);
    assertThat(refused.body()).contains("\"kind\":\"Status\"").contains("\"reason\":\"RequestEntityTooLarge\"");

    HttpResponse<String> after = http2.send(HttpRequest.newBuilder(
            URI.create(server.url() + "/api/v1/namespaces/default/configmaps/too-big"))
        .timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(after.statusCode()).as("nothing was stored").isEqualTo(404);
    assertThat(after.version()).isEqualTo(HttpClient.Version.HTTP_2);
  }

  private static String firstLine(HttpResponse<Stream<String>> r) throws Exception {
    return CompletableFuture.supplyAsync(() -> {
      Iterator<String> it = r.body().iterator();
      return it.hasNext() ? it.next() : "";
    }).get(10, TimeUnit.SECONDS);
  }
}

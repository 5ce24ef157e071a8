package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A list many chunks long (written as it is produced, not built whole) arrives complete and
 * well-formed, over HTTP/1.1 and over HTTP/2.
 */
@ExtendWith(ApiServerExtension.class)
class ListStreamingTest {

  private static final int OBJECTS = 600;
  private static final String PAYLOAD = "x".repeat(8 * 1024);

  private static KubeHttp http;
  private static String namespace;
  private static String base;

  @BeforeAll
  static void fill(ApiServer server) {
    http = new KubeHttp(server);
    base = server.url();
    namespace = http.createNamespace("big-list");
    String path = "/api/v1/namespaces/" + namespace + "/configmaps";
    List<CompletableFuture<Void>> creates = new ArrayList<>();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    for (int i = 0; i < OBJECTS; i++) {
      ObjectNode cm = KubeHttp.configMap(String.format("cm-%04d", i), Map.of(), Map.of("payload", PAYLOAD));
      HttpRequest post = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(cm.toString())).build();
      creates.add(client.sendAsync(post, HttpResponse.BodyHandlers.ofString())
          .thenAccept(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(201)));
    }
    CompletableFuture.allOf(creates.toArray(new CompletableFuture[0])).join();
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  @Test
  void largeList_overHttp1_arrivesCompleteAndWellFormed_withItsContentLength() throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    HttpResponse<byte[]> r = client.send(listRequest(), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(r.body().length).as("several chunks").isGreaterThan(10 * ListChunks.CHUNK_BYTES);
    assertThat(r.headers().firstValueAsLong("content-length")).hasValue(r.body().length);
    assertCompleteList(KubeHttp.JSON.readTree(r.body()));
  }

  @Test
  void largeList_overHttp2_arrivesCompleteAndWellFormed() throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    // the first request upgrades the connection to h2c; the list then travels on a stream
    client.send(HttpRequest.newBuilder(URI.create(base + "/version")).build(), HttpResponse.BodyHandlers.ofString());

    HttpResponse<byte[]> r = client.send(listRequest(), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertCompleteList(KubeHttp.JSON.readTree(r.body()));
  }

  private static HttpRequest listRequest() {
    return HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces/" + namespace + "/configmaps"))
        .header("Accept", "application/json").timeout(KubeHttp.WAIT).build();
  }

  private static void assertCompleteList(JsonNode list) {
    assertThat(list.path("kind").asText()).isEqualTo("ConfigMapList");
    assertThat(list.at("/metadata/resourceVersion").asText()).matches("[0-9]+");
    assertThat(list.path("items")).hasSize(OBJECTS);
    for (int i = 0; i < OBJECTS; i++) {
      JsonNode item = list.path("items").get(i);
      assertThat(item.at("/metadata/name").asText()).isEqualTo(String.format("cm-%04d", i));
      assertThat(item.at("/data/payload").asText()).isEqualTo(PAYLOAD);
    }
  }
}

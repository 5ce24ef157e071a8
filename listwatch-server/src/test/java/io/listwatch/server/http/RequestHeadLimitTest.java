package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Request heads up to kube's 1 MiB are served; larger ones are answered 431 with a Status, over
 * HTTP/1.1 and HTTP/2, and never served (they used to be cut at 64 KiB and served, a 16 MiB
 * header included).
 */
@ExtendWith(ApiServerExtension.class)
class RequestHeadLimitTest {

  private static final String PATH = "/api/v1/namespaces/default/configmaps";

  /** A GET of {@link #PATH} whose one extra header carries {@code size} bytes of value. */
  private static byte[] getWithHeader(int size) {
    return ("GET " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nX-Padding: "
        + "p".repeat(size) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Sends {@code request} on a new connection (from another thread, so a server that answers
   * before reading it all is heard) and reads the response head and body, and, if
   * {@code untilClosed}, on until the server closes the connection.
   */
  private static Answer exchange(ApiServer server, byte[] request, boolean untilClosed) throws Exception {
    URI uri = URI.create(server.url());
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout((int) KubeHttp.WAIT.toMillis());
      OutputStream out = socket.getOutputStream();
      CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
        try {
          out.write(request);
          out.flush();
        } catch (IOException closedBeforeAllWasSent) {
          // the server may close once it has answered
        }
      });
      InputStream in = socket.getInputStream();
      Map<String, String> head = RawHttp.readHead(in);
      byte[] body = in.readNBytes(Integer.parseInt(head.getOrDefault("content-length", "0")));
      boolean closed = untilClosed && in.read() == -1;
      sent.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return new Answer(head, body, closed);
    }
  }

  private record Answer(Map<String, String> head, byte[] body, boolean closedAfter) {
    JsonNode status() throws IOException {
      return new ObjectMapper().readTree(body);
    }
  }

  @Test
  void aHeaderOf200KiB_isServed_asKubeServesHeadsUpTo1MiB(ApiServer server) throws Exception {
    Answer a = exchange(server, getWithHeader(200 * 1024), false);
    assertThat(a.head().get("")).startsWith("HTTP/1.1 200");
    assertThat(a.status().path("kind").asText()).isEqualTo("ConfigMapList");
  }

  @Test
  void aHeadOver1MiB_is431Status_andTheConnectionCloses(ApiServer server) throws Exception {
    Answer a = exchange(server, getWithHeader(MalformedRequests.MAX_HEADER_BYTES + 1), true);
    assertThat(a.head().get("")).startsWith("HTTP/1.1 431");
    assertThat(a.status().path("kind").asText()).isEqualTo("Status");
    assertThat(a.status().path("code").asInt()).isEqualTo(431);
    assertThat(a.status().path("message").asText()).startsWith("Request Header Fields Too Large");
    assertThat(a.closedAfter()).as("the connection ends after the answer").isTrue();
  }

  @Test
  void a16MiBHeader_is431_notServed(ApiServer server) throws Exception {
    Answer a = exchange(server, getWithHeader(16 * 1024 * 1024), true);
    assertThat(a.head().get("")).startsWith("HTTP/1.1 431");
  }

  @Test
  void aRequestLineOver1MiB_is431(ApiServer server) throws Exception {
    byte[] request = ("GET " + PATH + "?labelSelector=" + "a".repeat(MalformedRequests.MAX_HEADER_BYTES)
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    assertThat(exchange(server, request, true).head().get("")).startsWith("HTTP/1.1 431");
  }

  @Test
  void aHeaderThatIsNotHttp_is400Status(ApiServer server) throws Exception {
    byte[] request = ("GET " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: x\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    Answer a = exchange(server, request, true);
    assertThat(a.head().get("")).startsWith("HTTP/1.1 400");
    assertThat(a.status().path("reason").asText()).isEqualTo("BadRequest");
  }

  @Test
  void overHttp2_headsUpTo1MiBAreServed_andLargerOnes431(ApiServer server) throws Exception {
    HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
        .connectTimeout(Duration.ofSeconds(5)).build();
    http2.send(HttpRequest.newBuilder(URI.create(server.url() + "/version")).build(),
        HttpResponse.BodyHandlers.discarding());
    HttpResponse<String> served = http2.send(HttpRequest.newBuilder(URI.create(server.url() + PATH))
        .header("X-Padding", "p".repeat(200 * 1024)).timeout(KubeHttp.WAIT).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(served.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(served.statusCode()).isEqualTo(200);
    HttpResponse<String> refused = http2.send(HttpRequest.newBuilder(URI.create(server.url() + PATH))
        .header("X-Padding", "p".repeat(MalformedRequests.MAX_HEADER_BYTES + 1)).timeout(KubeHttp.WAIT).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(431);
  }
}

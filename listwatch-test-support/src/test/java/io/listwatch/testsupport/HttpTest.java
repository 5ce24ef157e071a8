package io.listwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The helper against the JDK's own HTTP server, which echoes what it was sent. */
class HttpTest {

  private HttpServer server;
  private Http http;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI()
          + " accept=" + exchange.getRequestHeaders().get("Accept")
          + " type=" + exchange.getRequestHeaders().getFirst("Content-Type")
          + " auth=" + exchange.getRequestHeaders().get("Authorization")
          + " body=" + body);
      byte[] answer = ("{\"echo\":\"" + exchange.getRequestMethod() + "\"}\n{\"second\":true}\n")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
    http = Http.plain("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    http.close();
    server.stop(0);
  }

  @Test
  void requests_sendJsonWithTheirContentType_andAcceptJson() {
    http.post("/a", "{\"x\":1}").expect(200);
    http.put("/b", "{}").expect(200);
    http.mergePatch("/c", "{\"y\":2}").expect(200);
    http.delete("/d").expect(200);

    assertThat(requests).containsExactly(
        "POST /a accept=[application/json] type=application/json auth=null body={\"x\":1}",
        "PUT /b accept=[application/json] type=application/json auth=null body={}",
        "PATCH /c accept=[application/json] type=application/merge-patch+json auth=null body={\"y\":2}",
        "DELETE /d accept=[application/json] type=null auth=null body=");
  }

  @Test
  void headers_ofARequest_replaceTheDefaults_andThoseOfTheHelperGoWithEveryRequest() {
    Http authorized = http.withHeaders(Map.of("Authorization", "Bearer t"));

    http.get("/a", "Accept", "application/yaml");
    authorized.get("/b");
    authorized.get("/c", "Authorization", "Bearer u", "Authorization", "Bearer v");

    assertThat(requests).containsExactly(
        "GET /a accept=[application/yaml] type=null auth=null body=",
        "GET /b accept=[application/json] type=null auth=[Bearer t] body=",
        "GET /c accept=[application/json] type=null auth=[Bearer u, Bearer v] body=");
  }

  @Test
  void expect_returnsTheBody_orFailsShowingIt() {
    assertThat(http.get("/x").expect(200)).startsWith("{\"echo\":\"GET\"}");
    Http.Response missing = http.get("/missing");
    assertThat(missing.contentType()).isEqualTo("application/json");

    assertThatThrownBy(() -> missing.expect(200))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("{\"echo\":\"GET\"}");
  }

  @Test
  void lines_readTheBodyLineByLine() {
    HttpResponse<Stream<String>> watch = http.lines("/watch");

    assertThat(watch.statusCode()).isEqualTo(200);
    try (Stream<String> lines = watch.body()) {
      assertThat(lines).containsExactly("{\"echo\":\"GET\"}", "{\"second\":true}");
    }
  }

  @Test
  void headers_comeInPairs() {
    assertThatThrownBy(() -> http.get("/a", "Accept"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Plain JSON requests to the server, for the steps of a compatibility test that are not the
 * client under test (creating a namespace, changing an object behind kubectl's back).
 * Every request has a timeout. Thread-safe; close once.
 */
final class RawApi implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final String baseUrl;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(TIMEOUT)
      .build();

  RawApi(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  record Response(int status, String body) {
  }

  Response send(String method, String path, String contentType, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(TIMEOUT)
        .header("Accept", "application/json");
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    try {
      HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Sends a request and asserts the status; returns the body. */
  String expect(int status, String method, String path, String contentType, String body) {
    Response r = send(method, path, contentType, body);
    assertThat(r.status()).as("%s %s -> %s", method, path, r.body()).isEqualTo(status);
    return r.body();
  }

  void createNamespace(String name) {
    expect(201, "POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}");
  }

  /** Creates a pod with one container; {@code extraMetadata} is spliced into metadata (e.g. labels). */
  void createPod(String namespace, String name, String extraMetadata, String nodeName) {
    expect(201, "POST", "/api/v1/namespaces/" + namespace + "/pods", "application/json", """
        {"apiVersion":"v1","kind":"Pod",
         "metadata":{"name":"%s"%s},
         "spec":{"nodeName":"%s","containers":[{"name":"main","image":"nginx:1.27"}]}}
        """.formatted(name, extraMetadata.isEmpty() ? "" : "," + extraMetadata, nodeName));
  }

  String mergePatch(String path, String patch) {
    return expect(200, "PATCH", path, "application/merge-patch+json", patch);
  }

  @Override
  public void close() {
    http.close();
  }
}

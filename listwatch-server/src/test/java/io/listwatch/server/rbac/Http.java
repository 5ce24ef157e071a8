package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A minimal JSON client for these tests, over any {@link HttpClient} (plain, or TLS with a
 * client certificate). Thread-safe.
 */
final class Http {

  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration WAIT = Duration.ofSeconds(15);

  private final String base;
  private final HttpClient client;
  private final Map<String, String> headers;

  Http(String base, HttpClient client) {
    this(base, client, Map.of());
  }

  /** {@code headers} are sent with every request (an Authorization header, say). */
  Http(String base, HttpClient client, Map<String, String> headers) {
    this.base = base;
    this.client = client;
    this.headers = Map.copyOf(headers);
  }

  static Http plain(String base) {
    return new Http(base, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT).build());
  }

  record Response(int code, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (HTTP " + code + "): " + body, e);
      }
    }

    JsonNode expect(int expected) {
      assertThat(code).as("HTTP status of %s", body).isEqualTo(expected);
      return json();
    }
  }

  Response get(String path) {
    return send("GET", path, null, null);
  }

  Response post(String path, Object body) {
    return send("POST", path, "application/json", body);
  }

  Response put(String path, Object body) {
    return send("PUT", path, "application/json", body);
  }

  Response patch(String path, Object body) {
    return send("PATCH", path, "application/merge-patch+json", body);
  }

  Response delete(String path) {
    return send("DELETE", path, null, null);
  }

  /** Opens a watch and returns its status code and the first line (if 200) without reading on. */
  HttpResponse<java.util.stream.Stream<String>> watch(String path) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT).GET();
      headers.forEach(b::header);
      return client.send(b.build(), HttpResponse.BodyHandlers.ofLines());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  Response send(String method, String path, String contentType, Object body) {
    try {
      byte[] bytes = body == null ? null : body instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
          : JSON.writeValueAsBytes(body);
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT)
          .header("Accept", "application/json")
          .method(method, bytes == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(bytes));
      headers.forEach(b::header);
      if (contentType != null) {
        b.header("Content-Type", contentType);
      }
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits (bounded) until {@code condition} holds. */
  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}

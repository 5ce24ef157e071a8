package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A small JSON client for these tests: requests with optional extra headers, answers read whole.
 * Every wait is bounded. Thread-safe.
 */
final class Http {

  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration WAIT = Duration.ofSeconds(15);

  private final String base;
  private final HttpClient client;

  Http(String base, HttpClient client) {
    this.base = base;
    this.client = client;
  }

  Http(String base) {
    this(base, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT).build());
  }

  record Response(int code, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (HTTP " + code + "): " + body, e);
      }
    }
  }

  Response send(String method, String path, String body, String... headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      throw new AssertionError(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  Response get(String path, String... headers) {
    return send("GET", path, null, headers);
  }

  Response post(String path, String body, String... headers) {
    return send("POST", path, body, headers);
  }

  /** Polls {@code condition} until it holds, at most {@link #WAIT}; fails otherwise. */
  static void await(String what, Supplier<Boolean> condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.get()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT + ": " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }
}

package io.listwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A small JSON-over-HTTP client for tests, on {@link HttpClient}: a request to a path of one
 * server, its answer read whole. For the steps of a test that are not the client under test
 * (creating what kubectl then acts on) and for tests that must see exactly what goes over the
 * wire. It knows no JSON library: bodies are strings, and a test parses them with its own.
 *
 * <pre>{@code
 * Http http = Http.plain(server.url());
 * http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns1\"}}").expect(201);
 * String body = http.get("/api/v1/namespaces/ns1").expect(200);
 * }</pre>
 *
 * <p>Every request sends {@code Accept: application/json} and the helper's own headers
 * ({@link #withHeaders}), unless the request gives a header of that name, and is bounded by
 * {@link #TIMEOUT}. A request's headers may repeat a name ({@code Impersonate-Group} twice).
 * Thread-safe: one {@link HttpClient}, which {@link #close()} closes when this helper built it.
 */
public final class Http implements AutoCloseable {

  /** The bound on one request, and on connecting: generous for a loaded 2-core machine. */
  public static final Duration TIMEOUT = Duration.ofSeconds(15);

  private final String base;
  private final HttpClient client;
  private final boolean ownsClient;
  private final Map<String, String> headers;

  private Http(String base, HttpClient client, boolean ownsClient, Map<String, String> headers) {
    this.base = Objects.requireNonNull(base, "base");
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.headers = Map.copyOf(headers);
  }

  /** Plain HTTP/1.1 to {@code baseUrl} (e.g. {@code http://127.0.0.1:43125}). */
  public static Http plain(String baseUrl) {
    return new Http(baseUrl, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(TIMEOUT).build(), true, Map.of());
  }

  /** Requests to {@code baseUrl} through {@code client} (TLS, HTTP/2...), which the caller owns and closes. */
  public static Http over(String baseUrl, HttpClient client) {
    return new Http(baseUrl, client, false, Map.of());
  }

  /** This helper, sending {@code headers} with every request too (an {@code Authorization} header, say). */
  public Http withHeaders(Map<String, String> headers) {
    return new Http(base, client, false, headers);
  }

  /** The URI of {@code path} on this server. */
  public URI uri(String path) {
    return URI.create(base + path);
  }

  /** A GET; {@code headers} are name, value, name, value... */
  public Response get(String path, String... headers) {
    return send("GET", path, null, null, headers);
  }

  /** A POST of a JSON body; {@code headers} are name, value, name, value... */
  public Response post(String path, String json, String... headers) {
    return send("POST", path, "application/json", json, headers);
  }

  /** A PUT of a JSON body. */
  public Response put(String path, String json) {
    return send("PUT", path, "application/json", json);
  }

  /** A PATCH with a JSON merge patch. */
  public Response mergePatch(String path, String patch) {
    return send("PATCH", path, "application/merge-patch+json", patch);
  }

  /** A DELETE without a body. */
  public Response delete(String path) {
    return send("DELETE", path, null, null);
  }

  /**
   * Any request; {@code contentType} and {@code body} may be null (no body), {@code headers} are
   * name, value, name, value...
   */
  public Response send(String method, String path, String contentType, String body, String... headers) {
    List<String> all = new ArrayList<>(List.of(headers));
    if (contentType != null) {
      all.addAll(List.of("Content-Type", contentType));
    }
    HttpRequest request = request(path, all)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> r = exchange(request, HttpResponse.BodyHandlers.ofString(), method + " " + path);
    return new Response(r.statusCode(), r.headers(), r.body());
  }

  /**
   * A GET whose body is read line by line as it comes (a watch): the caller reads the lines it
   * needs and closes the stream. The wait for the response head is bounded by {@link #TIMEOUT}.
   */
  public HttpResponse<Stream<String>> lines(String path) {
    return exchange(request(path, List.of()).GET().build(), HttpResponse.BodyHandlers.ofLines(), "GET " + path);
  }

  /**
   * A request for {@code path} with {@code headers} (name, value, ...; a name may repeat), then
   * this helper's headers and {@code Accept: application/json}, each unless the request names it.
   */
  private HttpRequest.Builder request(String path, List<String> headers) {
    if (headers.size() % 2 != 0) {
      throw new IllegalArgumentException("headers come in name, value pairs: " + headers);
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT);
    Set<String> named = new HashSet<>();
    for (int i = 0; i < headers.size(); i += 2) {
      b.header(headers.get(i), headers.get(i + 1));
      named.add(headers.get(i).toLowerCase(Locale.ROOT));
    }
    this.headers.forEach((name, value) -> {
      if (named.add(name.toLowerCase(Locale.ROOT))) {
        b.header(name, value);
      }
    });
    if (!named.contains("accept")) {
      b.header("Accept", "application/json");
    }
    return b;
  }

  private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what) {
    try {
      return client.send(request, handler);
    } catch (IOException e) {
      throw new UncheckedIOException(what + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted during " + what, e);
    }
  }

  /** Closes the {@link HttpClient} if this helper built it ({@link #plain}); idempotent. */
  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  /** An answer read whole. */
  public record Response(int code, HttpHeaders headers, String body) {

    /** Asserts the status code (the failure shows the body); returns the body. */
    public String expect(int expectedCode) {
      assertThat(code).as("HTTP status of a response with body %s", body).isEqualTo(expectedCode);
      return body;
    }

    /** The {@code Content-Type} header, or "". */
    public String contentType() {
      return headers.firstValue("content-type").orElse("");
    }
  }
}

package io.listwatch.client.internal;

import io.listwatch.api.ListOptions;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a {@link RestResourceClient} reaches an API server: one request out, one response back,
 * whatever carries them (HTTP for {@link HttpKubeClient}, the API core in memory for the fake
 * client). Every REST verb's path, query, body and decoding is the resource client's; a
 * transport only moves bytes, so every client behaves alike wherever its answers come from.
 *
 * <p>Implementations are thread-safe: many threads send at once.
 */
public interface RestTransport {

  /** The namespace that namespaced objects without one are written to. */
  String defaultNamespace();

  /**
   * Sends {@code request} and returns once the response's head is known; the caller reads and
   * closes the body. A watch's body streams its events as they happen.
   *
   * @throws java.io.UncheckedIOException when the server cannot be reached
   * @throws IllegalStateException when the transport is closed
   */
  RestResponse send(RestRequest request);

  /** The watches open over this transport, which closing it ends. */
  OpenWatches watches();

  /**
   * One request.
   *
   * @param pathAndQuery the request target: an encoded path and, after {@code ?}, the query
   * @param contentType the body's media type, or "" without a body
   */
  record RestRequest(String method, String pathAndQuery, String contentType, byte[] body) {

    static RestRequest get(String pathAndQuery) {
      return new RestRequest("GET", pathAndQuery, "", new byte[0]);
    }

    /**
     * Whether this is a watch: a GET whose first {@code watch} query parameter reads as true
     * the way the server reads it ({@link ListOptions#parseBool}).
     */
    boolean isWatch() {
      int q = pathAndQuery.indexOf('?');
      if (!method.equals("GET") || q < 0) {
        return false;
      }
      for (String param : pathAndQuery.substring(q + 1).split("&")) {
        if (param.equals("watch") || param.startsWith("watch=")) {
          String value = param.length() > "watch".length() ? param.substring("watch=".length()) : "";
          return ListOptions.parseBool(URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
      }
      return false;
    }

    @Override
    public String toString() {
      return method + " " + pathAndQuery;
    }
  }

  /**
   * One response's status, headers (names in any case) and body, open until the reader closes it.
   */
  record RestResponse(int code, Map<String, List<String>> headers, InputStream body) {

    /** The first value of a header, matching its name in any case. */
    public Optional<String> header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
          .map(e -> e.getValue().getFirst()).findFirst();
    }
  }
}

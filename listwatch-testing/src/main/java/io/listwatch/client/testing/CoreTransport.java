package io.listwatch.client.testing;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.WatchStart;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.client.internal.OpenWatches;
import io.listwatch.client.internal.RestTransport;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The fake client's way to the API core: each request becomes the {@link ApiRequest} the
 * network server would have made of it, acting as the cluster admin, and is answered by the
 * core's routes; the answer's JSON (or its Status, for a failure) is handed back as the body
 * the client decodes, and a watch's events arrive through a {@link WatchPipe}. So every rule a
 * request meets is the server's own, and the client's decoding is the one it uses over HTTP.
 *
 * <p>Thread-safe. One per {@link FakeClient}: closing the client ends its watches.
 */
final class CoreTransport implements RestTransport {

  private final FakeApiServer server;
  private final Supplier<String> defaultNamespace;
  private final OpenWatches watches = new OpenWatches();
  private volatile boolean closed;

  CoreTransport(FakeApiServer server, Supplier<String> defaultNamespace) {
    this.server = server;
    this.defaultNamespace = defaultNamespace;
  }

  @Override
  public String defaultNamespace() {
    return defaultNamespace.get();
  }

  @Override
  public RestResponse send(RestRequest request) {
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    ApiRoutes routes = server.core().routes();
    try {
      ApiRequest api = apiRequest(request);
      RequestInfo info = routes.requestInfo(api);
      boolean ahead = asksForTheFuture(api);
      CompletableFuture<ApiResponse> answering = routes.handle(info, api);
      if (answering.getNow(null) instanceof ApiResponse r && r.body() instanceof WatchStart start) {
        return watch(start, ahead);
      }
      if (ahead && !answering.isDone()) {
        server.letWaitsElapse();
      }
      ApiResponse answer = answering.join();
      byte[][] parts = answer.jsonParts().orElseThrow(
          () -> new IllegalStateException(request + " answered with a body that is not JSON"));
      return new RestResponse(answer.code(), answer.headers(), concat(parts));
    } catch (RuntimeException e) {
      StatusException status = asStatus(e);
      return new RestResponse(status.code(), Map.of(), new ByteArrayInputStream(ApiResponse.json(status.status())));
    }
  }

  /**
   * Whether the request names a resourceVersion the store has not reached: the server waits
   * for the cache to reach it, a few seconds at most, then answers 504. Time stands still on
   * the fake's clock, so such a wait would never end; it elapses at once instead (unless a
   * write already got there), and the answer is the server's own.
   */
  private boolean asksForTheFuture(ApiRequest api) {
    String rv = api.param("resourceVersion");
    if (rv.isEmpty() || rv.equals("0")) {
      return false;
    }
    try {
      return Long.parseLong(rv) > server.resourceVersion();
    } catch (NumberFormatException e) {
      return false; // the core answers 400
    }
  }

  /** Starts a watch the routes accepted; its events flow into the response body as they happen. */
  private RestResponse watch(WatchStart start, boolean ahead) {
    WatchPipe pipe = new WatchPipe(server.watchExecutor());
    CompletableFuture<?> begun = start.begin(pipe).thenAccept(started -> started.ifPresent(pipe::started));
    if (ahead && !begun.isDone()) {
      server.letWaitsElapse();
    }
    return new RestResponse(200, Map.of("Content-Type", List.of("application/json")), pipe.body());
  }

  @Override
  public OpenWatches watches() {
    return watches;
  }

  /** Ends this client's open watches, as if their connections dropped; new ones may start. */
  void closeWatches() {
    watches.closeAll();
  }

  /** Ends the open watches and refuses further requests. Idempotent. */
  void close() {
    closed = true;
    watches.close();
  }

  private static ApiRequest apiRequest(RestRequest request) {
    String target = request.pathAndQuery();
    int q = target.indexOf('?');
    String path = URLDecoder.decode((q < 0 ? target : target.substring(0, q)).replace("+", "%2B"),
        StandardCharsets.UTF_8);
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (q >= 0) {
      for (String pair : target.substring(q + 1).split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      }
    }
    Headers headers = request.contentType().isEmpty() ? Headers.of("Accept", "application/json")
        : Headers.of("Accept", "application/json", "Content-Type", request.contentType());
    return new ApiRequest(request.method(), path, Collections.unmodifiableMap(query), headers, request.body(),
        ConnectionInfo.insecure(null), UserInfo.UNSECURED);
  }

  private static InputStream concat(byte[][] parts) {
    if (parts.length == 1) {
      return new ByteArrayInputStream(parts[0]);
    }
    return new SequenceInputStream(Collections.enumeration(
        Arrays.stream(parts).map(ByteArrayInputStream::new).toList()));
  }

  /** A failure as the server sends it: its Status, or a 500 for anything else. */
  private static StatusException asStatus(Throwable e) {
    Throwable cause = e;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause instanceof StatusException se ? se : StatusException.internal(String.valueOf(cause.getMessage()));
  }
}

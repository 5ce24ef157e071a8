package io.listwatch.client.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP {@link io.listwatch.client.KubeClient}, on {@code java.net.http.HttpClient}.
 *
 * <p><b>Transport.</b> HTTP/2 where the server offers it: ALPN over TLS, and the
 * {@code Upgrade: h2c} handshake on plain {@code http://}; HTTP/1.1 otherwise (or when
 * {@link Config#http2()} is off). Over HTTP/2 every request and watch is a stream of one
 * connection. The JDK opens one connection per request that starts before any connection to
 * the server exists, so the first exchange goes alone: requests that arrive meanwhile wait
 * for its response headers (at most the request timeout) and then share its connection.
 *
 * <p><b>Threads.</b> Requests block the calling thread (virtual threads are the intended
 * callers); response bodies are decoded on the thread that reads them, never on the
 * HttpClient's selector thread. The HttpClient's own executor is the JDK default.
 *
 * <p><b>Dead connections.</b> client-go pings an HTTP/2 connection after 30 s without reads;
 * the JDK client has no such option. A connection that died silently (a NAT or load
 * balancer forgot it: no FIN, no RST) would otherwise swallow every new stream forever, so
 * when a request's response headers do not arrive within the request timeout this client
 * replaces its HttpClient: later requests open a fresh connection, and the old client is
 * shut down gracefully (its streams end as their readers close them, e.g. when a reflector
 * finds its watch silent). The new HttpClient's first exchange goes alone again, through the
 * same gate. The request timeout bounds the wait for a response body's next bytes too, except
 * a watch's ({@link StalledBodyGuard}): a body that stops arriving fails its read and replaces
 * the HttpClient the same way.
 *
 * <p>Thread-safe. {@link #close()} ends open watches and shuts the HttpClient down.
 */
public final class HttpKubeClient implements KubeClient, RestTransport {

  private static final String USER_AGENT = "listwatch-client/0.1";

  private final Config config;
  /** The current HttpClient; replaced when its connection looks dead (see the class note). */
  private volatile HttpClient http;
  /** How many times {@link #http} was replaced, for tests and diagnostics. */
  private final java.util.concurrent.atomic.AtomicInteger replacements = new java.util.concurrent.atomic.AtomicInteger();
  private final BearerToken token;
  private final String basicAuth;
  /** Ends the body of a response (not a watch's) that stops arriving for the request timeout. */
  private final StalledBodyGuard stalledBodies;
  /** Open watches, closed with the client. */
  private final OpenWatches watches = new OpenWatches();
  private final Object gateLock = new Object();
  /** The first exchange in flight, null when none. */
  @GuardedBy("gateLock")
  private CompletableFuture<Void> firstExchange;
  /** Whether an exchange has completed, so a connection exists. */
  @GuardedBy("gateLock")
  private boolean connected;
  private volatile boolean closed;
  /** The protocol of the last response, for tests and diagnostics. */
  private volatile HttpClient.Version lastVersion;

  private HttpKubeClient(Config config) {
    this.config = config;
    this.http = newHttpClient(config);
    this.stalledBodies = new StalledBodyGuard(config.requestTimeout());
    this.token = new BearerToken(config.token().orElse(null), config.tokenFile().orElse(null), System::nanoTime);
    this.basicAuth = config.username().map(u -> "Basic " + Base64.getEncoder()
        .encodeToString((u + ":" + config.password().orElse("")).getBytes(StandardCharsets.UTF_8))).orElse(null);
  }

  private static HttpClient newHttpClient(Config config) {
    HttpClient.Builder b = HttpClient.newBuilder()
        .version(config.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
        .connectTimeout(config.requestTimeout())
        .followRedirects(HttpClient.Redirect.NEVER);
    if (config.server().getScheme().equalsIgnoreCase("https")) {
      b.sslContext(TlsContexts.of(config));
    }
    return b.build();
  }

  /**
   * A client for {@code config}.
   *
   * @throws IllegalArgumentException if the TLS settings cannot be used
   */
  public static HttpKubeClient create(Config config) {
    return new HttpKubeClient(Objects.requireNonNull(config, "config"));
  }

  @Override
  public <T> ResourceClient<T> resource(ResourceType type, ObjectCodec<T> codec) {
    return RestResourceClient.of(this, type, codec);
  }

  /** The config this client was created with. */
  public Config config() {
    return config;
  }

  @Override
  public String defaultNamespace() {
    return config.namespace();
  }

  /** The HTTP request for {@code request}, with the common headers and credentials. */
  private HttpRequest.Builder request(RestRequest request) {
    HttpRequest.Builder b = HttpRequest.newBuilder(java.net.URI.create(config.server() + request.pathAndQuery()))
        .header("Accept", "application/json")
        .header("User-Agent", USER_AGENT);
    if (!request.contentType().isEmpty()) {
      b.header("Content-Type", request.contentType());
    }
    b.method(request.method(), request.body().length == 0 && request.contentType().isEmpty()
        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(request.body()));
    java.util.Optional<String> bearer = token.current();
    if (bearer.isPresent()) {
      b.header("Authorization", "Bearer " + bearer.get());
    } else if (basicAuth != null) {
      b.header("Authorization", basicAuth);
    }
    return b;
  }

  /**
   * Sends a request and returns once the response headers arrived; the caller reads (and
   * closes) the body. The request timeout limits the wait for the headers only, so neither
   * a long list body nor a watch is cut by it.
   *
   * @throws UncheckedIOException on connection failure, timeout or interrupt
   */
  @Override
  public RestResponse send(RestRequest request) {
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    HttpRequest req = request(request).timeout(config.requestTimeout()).build();
    CompletableFuture<Void> mine = awaitConnection();
    boolean ok = false;
    HttpClient client = http;
    try {
      HttpResponse<InputStream> response = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
      lastVersion = response.version();
      ok = true;
      InputStream body = request.isWatch() ? response.body()
          : stalledBodies.guard(response.body(), req.method() + " " + req.uri(), () -> replaceConnection(client));
      return new RestResponse(response.statusCode(), response.headers().map(), body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("interrupted: " + req.method() + " " + req.uri()));
    } catch (java.net.http.HttpTimeoutException e) {
      replaceConnection(client);
      throw new UncheckedIOException(req.method() + " " + req.uri() + ": " + e, e);
    } catch (IOException e) {
      throw new UncheckedIOException(req.method() + " " + req.uri() + ": " + e, e);
    } finally {
      if (mine != null) {
        synchronized (gateLock) {
          if (client == http) { // not if the connection was replaced meanwhile
            connected = ok;
          }
          firstExchange = null;
        }
        mine.complete(null);
      }
    }
  }

  /**
   * Waits while another thread's first exchange is in flight; returns a future when this
   * thread's request is the first exchange (complete it when done), null otherwise.
   */
  private CompletableFuture<Void> awaitConnection() {
    if (!config.http2()) {
      return null;
    }
    CompletableFuture<Void> wait;
    synchronized (gateLock) {
      if (connected) {
        return null;
      }
      if (firstExchange == null) {
        firstExchange = new CompletableFuture<>();
        return firstExchange;
      }
      wait = firstExchange;
    }
    try {
      wait.get(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("interrupted while connecting"));
    } catch (ExecutionException | TimeoutException e) {
      // go ahead on a connection of our own
    }
    return null;
  }

  /**
   * Replaces {@code suspect} (if it is still the current HttpClient) with a new one, so later
   * requests open a new connection; shuts {@code suspect} down gracefully.
   */
  private void replaceConnection(HttpClient suspect) {
    synchronized (gateLock) {
      if (http != suspect || closed) {
        return;
      }
      http = newHttpClient(config);
      connected = false;
      replacements.incrementAndGet();
    }
    suspect.shutdown();
  }

  /** How many times the connection was replaced because a request timed out. */
  public int connectionReplacements() {
    return replacements.get();
  }

  /** The HTTP version of the last response, empty before the first. */
  public java.util.Optional<HttpClient.Version> lastResponseVersion() {
    return java.util.Optional.ofNullable(lastVersion);
  }

  @Override
  public OpenWatches watches() {
    return watches;
  }

  /** Ends open watches, then shuts the HttpClient down. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    watches.close();
    stalledBodies.close();
    HttpClient current;
    synchronized (gateLock) {
      current = http;
    }
    current.shutdownNow();
    try {
      current.awaitTermination(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "KubeClient[" + config.server() + "]";
  }
}

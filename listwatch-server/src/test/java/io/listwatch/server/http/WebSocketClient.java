package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * A watch over WebSocket with the JDK's {@link WebSocket} client: whole messages, pongs and
 * the server's Close land in queues that tests poll with a bound. Thread-safe: the JDK calls
 * the listener on its own threads, tests read the queues.
 */
final class WebSocketClient implements WebSocket.Listener, AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Each whole text message, as received. */
  final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
  final BlockingQueue<ByteBuffer> pongs = new LinkedBlockingQueue<>();
  /** The status code of the server's Close, or -1 when the connection failed. */
  final BlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
  private final HttpClient http;
  private final StringBuilder partial = new StringBuilder(); // JDK calls the listener sequentially
  private WebSocket socket;

  private WebSocketClient() {
    this(HttpClient.newHttpClient());
  }

  private WebSocketClient(HttpClient http) {
    this.http = http;
  }

  /** Opens a WebSocket watch on {@code pathAndQuery} ({@code watch=true} is added). */
  static WebSocketClient open(String baseUrl, String pathAndQuery, String... subprotocols) {
    return open(new WebSocketClient(), baseUrl, pathAndQuery, subprotocols);
  }

  /** Opens a {@code wss:} watch on an {@code https:} server, with the TLS settings (client certificate) of {@code ssl}. */
  static WebSocketClient openTls(SSLContext ssl, String baseUrl, String pathAndQuery) {
    return open(new WebSocketClient(HttpClient.newBuilder().sslContext(ssl).build()), baseUrl, pathAndQuery);
  }

  private static WebSocketClient open(WebSocketClient c, String baseUrl, String pathAndQuery,
      String... subprotocols) {
    CompletableFuture<WebSocket> ws = c.connect(baseUrl, pathAndQuery, subprotocols);
    try {
      c.socket = ws.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return c;
    } catch (ExecutionException e) {
      c.http.shutdownNow();
      throw new AssertionError("WebSocket watch " + pathAndQuery + " refused", e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      c.http.shutdownNow();
      throw new AssertionError("no WebSocket handshake for " + pathAndQuery + " within " + KubeHttp.WAIT, e);
    }
  }

  /** Tries to open a watch that the server must refuse; returns the HTTP answer it got. */
  static java.net.http.HttpResponse<?> refused(String baseUrl, String pathAndQuery) {
    WebSocketClient c = new WebSocketClient();
    try {
      WebSocket ws = c.connect(baseUrl, pathAndQuery).get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      ws.abort();
      throw new AssertionError("the server accepted the WebSocket watch " + pathAndQuery);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WebSocketHandshakeException h) {
        return h.getResponse();
      }
      throw new AssertionError("WebSocket watch " + pathAndQuery + " failed", e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("no WebSocket answer for " + pathAndQuery + " within " + KubeHttp.WAIT, e);
    } finally {
      c.http.shutdownNow();
    }
  }

  private CompletableFuture<WebSocket> connect(String baseUrl, String pathAndQuery, String... subprotocols) {
    String sep = pathAndQuery.contains("?") ? "&" : "?";
    URI uri = URI.create(baseUrl.replaceFirst("^http", "ws") + pathAndQuery + sep + "watch=true");
    WebSocket.Builder b = http.newWebSocketBuilder().connectTimeout(KubeHttp.WAIT);
    if (subprotocols.length > 0) {
      b.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
    }
    return b.buildAsync(uri, this);
  }

  WebSocket socket() {
    return socket;
  }

  /** The next whole message, within {@link KubeHttp#WAIT}. */
  String nextMessage() {
    return poll(messages, "a WebSocket message");
  }

  /** The next message, which must be exactly one event line and parse alone as one event. */
  JsonNode nextEvent() {
    String m = nextMessage();
    if (m.indexOf('\n') != m.length() - 1) {
      fail("a message that is not exactly one newline-terminated event: " + KubeHttp.abbreviate(m));
    }
    try {
      return JSON.readTree(m);
    } catch (IOException e) {
      throw new AssertionError("a message that is not one JSON event: " + KubeHttp.abbreviate(m), e);
    }
  }

  /** The status code of the server's Close (or -1 for a failed connection), within the bound. */
  int awaitClose() {
    return poll(closes, "the server's Close");
  }

  static <T> T poll(BlockingQueue<T> queue, String what) {
    return poll(queue, what, KubeHttp.WAIT);
  }

  static <T> T poll(BlockingQueue<T> queue, String what, Duration bound) {
    try {
      T item = queue.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
      if (item == null) {
        fail("no " + what + " within " + bound);
      }
      return item;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      messages.add(partial.toString());
      partial.setLength(0);
    }
    ws.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onPong(WebSocket ws, ByteBuffer message) {
    ByteBuffer copy = ByteBuffer.allocate(message.remaining()).put(message).flip();
    pongs.add(copy);
    ws.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
    closes.add(statusCode);
    return null;
  }

  @Override
  public void onError(WebSocket ws, Throwable error) {
    closes.add(-1);
  }

  /** Drops the connection without a close handshake. */
  @Override
  public void close() {
    if (socket != null) {
      socket.abort();
    }
    http.shutdownNow();
  }
}

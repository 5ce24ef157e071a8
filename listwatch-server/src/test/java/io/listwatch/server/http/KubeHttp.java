package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A small HTTP/1.1 client for the API server, as a kube client sees it: plain JSON requests
 * and responses, and watch streams read line by line. Built on {@link HttpClient}; no kube
 * client library, so the tests see exactly what goes over the wire.
 *
 * <p>Every wait is bounded by {@link #WAIT} unless a caller passes its own bound. Thread-safe
 * (one {@link HttpClient}); each {@link WatchStream} is read by the test thread that owns it.
 */
final class KubeHttp implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();
  /** The bound on any single wait for the server: generous for a loaded 2-core machine. */
  static final Duration WAIT = Duration.ofSeconds(15);

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final String base;
  private final HttpClient client;

  KubeHttp(ApiServer server) {
    this(server.url());
  }

  KubeHttp(String baseUrl) {
    this.base = baseUrl;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(WAIT)
        .build();
  }

  // ---- plain requests ------------------------------------------------------------------

  /** An answer read whole. */
  record Response(int code, HttpHeaders headers, String body) {

    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("response body is not JSON (HTTP " + code + "): " + body, e);
      }
    }

    String contentType() {
      return headers.firstValue("content-type").orElse("");
    }

    /** Asserts the code and returns the JSON body. */
    JsonNode expect(int expectedCode) {
      assertThat(code).as("HTTP status of a response with body %s", abbreviate(body)).isEqualTo(expectedCode);
      return json();
    }
  }

  Response get(String path) {
    return send("GET", path, null, null);
  }

  /** A GET with its own Accept header. */
  Response get(String path, String accept) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT).header("Accept", accept).GET(),
        "GET " + path);
  }

  Response post(String path, Object body) {
    return send("POST", path, "application/json", bytes(body));
  }

  Response put(String path, Object body) {
    return send("PUT", path, "application/json", bytes(body));
  }

  Response mergePatch(String path, Object body) {
    return send("PATCH", path, "application/merge-patch+json", bytes(body));
  }

  Response delete(String path) {
    return send("DELETE", path, null, null);
  }

  /** A DELETE with DeleteOptions in the body, as kubectl sends it. */
  Response delete(String path, Object deleteOptions) {
    return send("DELETE", path, "application/json", bytes(deleteOptions));
  }

  Response send(String method, String path, String contentType, byte[] body) {
    return send(method, path, contentType, body, false);
  }

  /** Any request; {@code contentType} may be null (no header), {@code body} null (none). */
  Response send(String method, String path, String contentType, byte[] body, boolean expectContinue) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(WAIT)
        .header("Accept", "application/json")
        .expectContinue(expectContinue)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return send(b, method + " " + path);
  }

  private Response send(HttpRequest.Builder request, String what) {
    try {
      HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Response(r.statusCode(), r.headers(), r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(what + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // ---- conveniences --------------------------------------------------------------------

  /** Creates a namespace with a fresh name starting with {@code prefix}; returns the name. */
  String createNamespace(String prefix) {
    String name = prefix + "-" + SEQUENCE.incrementAndGet();
    ObjectNode ns = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
    ns.putObject("metadata").put("name", name);
    post("/api/v1/namespaces", ns).expect(201);
    return name;
  }

  /** POSTs {@code obj} to a collection, asserting 201 Created; returns the stored object. */
  JsonNode create(String collectionPath, JsonNode obj) {
    return post(collectionPath, obj).expect(201);
  }

  /** A consistent list (resourceVersion unset), asserting 200. */
  JsonNode list(String collectionPathAndQuery) {
    return get(collectionPathAndQuery).expect(200);
  }

  /** The current resourceVersion of a collection, from a consistent list. */
  long listResourceVersion(String collectionPath) {
    return rv(list(collectionPath));
  }

  static ObjectNode configMap(String name, Map<String, String> labels, Map<String, String> data) {
    ObjectNode cm = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    ObjectNode meta = cm.putObject("metadata").put("name", name);
    if (!labels.isEmpty()) {
      ObjectNode l = meta.putObject("labels");
      labels.forEach(l::put);
    }
    ObjectNode d = cm.putObject("data");
    data.forEach(d::put);
    return cm;
  }

  static ObjectNode configMap(String name) {
    return configMap(name, Map.of(), Map.of("k", "v"));
  }

  /** A minimal valid Pod (one container), optionally bound to a node. */
  static ObjectNode pod(String name, Map<String, String> labels, String nodeName) {
    ObjectNode pod = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata").put("name", name);
    if (!labels.isEmpty()) {
      ObjectNode l = meta.putObject("labels");
      labels.forEach(l::put);
    }
    ObjectNode spec = pod.putObject("spec");
    if (nodeName != null) {
      spec.put("nodeName", nodeName);
    }
    spec.putArray("containers").addObject().put("name", "main").put("image", "registry.k8s.io/pause:3.10");
    return pod;
  }

  /** A minimal valid apps/v1 Deployment. */
  static ObjectNode deployment(String name, int replicas) {
    ObjectNode d = JSON.createObjectNode().put("apiVersion", "apps/v1").put("kind", "Deployment");
    d.putObject("metadata").put("name", name);
    ObjectNode spec = d.putObject("spec").put("replicas", replicas);
    spec.putObject("selector").putObject("matchLabels").put("app", name);
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app", name);
    template.putObject("spec").putArray("containers").addObject().put("name", "main")
        .put("image", "registry.k8s.io/pause:3.10");
    return d;
  }

  /** {@code metadata.resourceVersion} of an object or list, as a number. */
  static long rv(JsonNode objectOrList) {
    String rv = objectOrList.path("metadata").path("resourceVersion").asText("");
    assertThat(rv).as("metadata.resourceVersion of %s", abbreviate(objectOrList.toString())).matches("[0-9]+");
    return Long.parseLong(rv);
  }

  static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  /** The names of a list's items, in order. */
  static List<String> names(JsonNode list) {
    JsonNode items = list.get("items");
    assertThat(items).as("items of %s", abbreviate(String.valueOf(list))).isNotNull();
    assertThat(items.isArray()).as("items is an array").isTrue();
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(name(i)));
    return out;
  }

  /** URL-encodes a query parameter value. */
  static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  static ObjectNode object(String json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ArrayNode array() {
    return JSON.createArrayNode();
  }

  /**
   * Asserts that {@code r} is a kube failure Status as clients decode it: JSON, kind Status,
   * apiVersion v1, a metadata object, status Failure, the HTTP code repeated in {@code code},
   * the reason, and a message. Returns the Status.
   */
  static JsonNode assertFailureStatus(Response r, int code, String reason) {
    assertThat(r.code()).as("HTTP status; body %s", abbreviate(r.body())).isEqualTo(code);
    assertThat(r.contentType()).as("Content-Type").startsWith("application/json");
    JsonNode s = r.json();
    assertFailureStatus(s, code, reason);
    return s;
  }

  static void assertFailureStatus(JsonNode s, int code, String reason) {
    assertThat(s.path("kind").asText()).as("kind of %s", s).isEqualTo("Status");
    assertThat(s.path("apiVersion").asText()).as("apiVersion of %s", s).isEqualTo("v1");
    assertThat(s.path("metadata").isObject()).as("metadata of %s is an object", s).isTrue();
    assertThat(s.path("status").asText()).as("status of %s", s).isEqualTo("Failure");
    assertThat(s.path("code").asInt()).as("code of %s", s).isEqualTo(code);
    assertThat(s.path("reason").asText()).as("reason of %s", s).isEqualTo(reason);
    assertThat(s.path("message").asText()).as("message of %s", s).isNotBlank();
  }

  /** Waits (bounded) until {@code condition} holds, polling; fails with {@code what}. */
  static void await(String what, Duration bound, BooleanSupplier condition) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("timed out after " + bound + " waiting until " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  static String abbreviate(String s) {
    return s == null || s.length() <= 600 ? s : s.substring(0, 600) + "...(" + s.length() + " chars)";
  }

  private static byte[] bytes(Object body) {
    if (body instanceof byte[] b) {
      return b;
    }
    if (body instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    try {
      return JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- watches -------------------------------------------------------------------------

  /**
   * Opens a watch ({@code watch=true} is added to the query) and returns once the response
   * head has arrived, within {@link #WAIT}: kube clients time out waiting for the head, so
   * the server must send it before any event exists. Asserts a 200 with a JSON content type.
   */
  WatchStream watch(String collectionPathAndQuery) {
    return watch(collectionPathAndQuery, true);
  }

  /**
   * Like {@link #watch(String)}; with {@code parse} false nothing reads the body: the caller
   * reads {@link WatchStream#rawBody()} itself.
   */
  WatchStream watch(String collectionPathAndQuery, boolean parse) {
    WatchStream w = openWatch(collectionPathAndQuery, parse);
    if (w.code() != 200) {
      String body = w.readAll();
      w.close();
      fail("watch " + collectionPathAndQuery + " answered HTTP " + w.code() + ": " + body);
    }
    assertThat(w.headers().firstValue("content-type").orElse("")).as("watch Content-Type")
        .startsWith("application/json");
    return w;
  }

  /** Like {@link #watch} but without asserting the status (for watches that must fail). */
  WatchStream openWatch(String collectionPathAndQuery) {
    return openWatch(collectionPathAndQuery, true);
  }

  private WatchStream openWatch(String collectionPathAndQuery, boolean parse) {
    String sep = collectionPathAndQuery.contains("?") ? "&" : "?";
    String path = collectionPathAndQuery + sep + "watch=true";
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
        .header("Accept", "application/json")
        .GET().build();
    try {
      HttpResponse<InputStream> r = client.sendAsync(req, HttpResponse.BodyHandlers.ofInputStream())
          .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return new WatchStream(path, r, parse);
    } catch (TimeoutException e) {
      throw new AssertionError("no response head within " + WAIT + " for GET " + path, e);
    } catch (ExecutionException e) {
      throw new AssertionError("GET " + path + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * One watch response body, split into lines by a reader thread. Every line must be one
   * JSON object with {@code type} and {@code object} ending with {@code \n} (COMPAT 0.1):
   * a line that does not parse, or bytes left without a final newline at the end of the
   * stream, fail the next read. The stream's end is reported as clean (the chunked body
   * ended normally) or not (the connection broke).
   */
  static final class WatchStream implements AutoCloseable {

    /** How the stream ended. */
    record End(boolean clean, Throwable error) {
    }

    private record FramingError(String message) {
    }

    private final String path;
    private final HttpResponse<InputStream> response;
    private final BlockingQueue<Object> items = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile boolean closing;
    private End end;

    private WatchStream(String path, HttpResponse<InputStream> response, boolean parse) {
      this.path = path;
      this.response = response;
      this.reader = parse && response.statusCode() == 200
          ? Thread.ofVirtual().name("watch-reader " + path).start(this::readLines) : null;
    }

    /** The body as it arrives, for a stream opened without parsing. */
    InputStream rawBody() {
      if (reader != null) {
        throw new IllegalStateException("this stream is read by its own reader thread");
      }
      return response.body();
    }

    int code() {
      return response.statusCode();
    }

    HttpHeaders headers() {
      return response.headers();
    }

    /** The whole body, for a failed watch answered with a plain Status. */
    String readAll() {
      try (InputStream in = response.body()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void readLines() {
      byte[] buf = new byte[64 * 1024];
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      try (InputStream in = response.body()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          for (int i = 0; i < n; i++) {
            if (buf[i] == '\n') {
              items.add(parse(line.toByteArray()));
              line.reset();
            } else {
              line.write(buf[i]);
            }
          }
        }
        if (line.size() > 0) {
          items.add(new FramingError("the stream ended inside an event, without its final newline: "
              + abbreviate(line.toString(StandardCharsets.UTF_8))));
        }
        items.add(new End(true, null));
      } catch (IOException | RuntimeException e) {
        items.add(new End(false, e));
      }
    }

    private static Object parse(byte[] line) {
      String text = new String(line, StandardCharsets.UTF_8);
      try {
        JsonNode event = JSON.readTree(line);
        if (event == null || !event.isObject() || !event.path("type").isTextual()
            || !event.path("object").isObject()) {
          return new FramingError("not a watch event line: " + abbreviate(text));
        }
        return event;
      } catch (IOException e) {
        return new FramingError("a watch line is not one JSON object: " + abbreviate(text) + " (" + e + ")");
      }
    }

    /** The next event, waiting at most {@link #WAIT}; fails if the stream ends first. */
    JsonNode next() {
      return next(WAIT);
    }

    JsonNode next(Duration bound) {
      Object item = take(bound);
      if (item == null) {
        fail("no watch event within " + bound + " on " + path);
      }
      if (item instanceof End e) {
        end = e;
        fail("the watch " + path + " ended (" + (e.clean() ? "cleanly" : "with " + e.error()) + ") while an event "
            + "was expected");
      }
      return (JsonNode) item;
    }

    /** The next {@code n} events. */
    List<JsonNode> next(int n) {
      List<JsonNode> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(next());
      }
      return out;
    }

    /**
     * Waits (bounded) for the end of the stream and returns how it ended; the events that
     * arrive before the end are returned in {@code before}.
     */
    End awaitEnd(Duration bound, List<JsonNode> before) {
      long deadline = System.nanoTime() + bound.toNanos();
      while (true) {
        long left = deadline - System.nanoTime();
        Object item = left <= 0 ? items.poll() : take(Duration.ofNanos(left));
        if (item == null) {
          fail("the watch " + path + " did not end within " + bound);
        }
        if (item instanceof End e) {
          end = e;
          return e;
        }
        before.add((JsonNode) item);
      }
    }

    private Object take(Duration bound) {
      if (end != null) {
        return end;
      }
      try {
        Object item = items.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (item instanceof FramingError f) {
          fail("bad watch framing on " + path + ": " + f.message());
        }
        return item;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** Closes the connection (the client goes away). Idempotent. */
    @Override
    public void close() {
      if (closing) {
        return;
      }
      closing = true;
      try {
        response.body().close();
      } catch (IOException e) {
        // going away anyway
      }
      if (reader != null) {
        reader.interrupt();
      }
    }
  }

  // ---- raw HTTP/1.1, for what HttpClient hides ------------------------------------------

  /** Writes a bare HTTP/1.1 GET on {@code out}. */
  static void writeGet(java.io.OutputStream out, String pathAndQuery) throws IOException {
    out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
        + "User-Agent: listwatch-http-test\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /**
   * Reads a response head (status line and headers, up to the blank line); the socket's read
   * timeout bounds the wait. Header names are lower-cased; the status line is under "".
   */
  static Map<String, String> readHead(InputStream in) throws IOException {
    Map<String, String> head = new java.util.HashMap<>();
    String line = readCrLfLine(in);
    head.put("", line);
    while (!(line = readCrLfLine(in)).isEmpty()) {
      int colon = line.indexOf(':');
      head.put(line.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT), line.substring(colon + 1).trim());
    }
    return head;
  }

  /** Reads one chunk of a chunked body; an empty array is the last chunk. */
  static byte[] readChunk(InputStream in) throws IOException {
    String sizeLine = readCrLfLine(in);
    int semi = sizeLine.indexOf(';');
    int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
    byte[] data = in.readNBytes(size);
    if (data.length < size) {
      throw new java.io.EOFException("the connection ended inside a chunk");
    }
    String crlf = readCrLfLine(in);
    assertThat(crlf).as("a chunk ends with CRLF").isEmpty();
    return data;
  }

  private static String readCrLfLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new java.io.EOFException("the connection ended inside a line: " + line);
      }
      line.write(c);
    }
    String s = line.toString(StandardCharsets.ISO_8859_1);
    assertThat(s).as("an HTTP line ends with CRLF").endsWith("\r");
    return s.substring(0, s.length() - 1);
  }

  // ---- small assertions on events ------------------------------------------------------

  static String type(JsonNode event) {
    return event.path("type").asText();
  }

  static JsonNode obj(JsonNode event) {
    return event.path("object");
  }

  /** "TYPE name" of an event, for readable assertions. */
  static String describe(JsonNode event) {
    return type(event) + " " + name(obj(event));
  }

  static Set<String> describeAll(List<JsonNode> events) {
    Set<String> out = new LinkedHashSet<>();
    events.forEach(e -> out.add(describe(e)));
    return out;
  }

  /** Drops every connection (open watches included) without waiting for them. */
  @Override
  public void close() {
    client.shutdownNow();
  }
}

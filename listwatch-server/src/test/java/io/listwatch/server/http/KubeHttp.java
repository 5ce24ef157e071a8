package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.1 client for the API server, as a kube client sees it: plain JSON requests
 * and responses, and watch streams read line by line. Built on {@link HttpClient}; no kube
 * client library, so the tests see exactly what goes over the wire.
 *
 * <p>Every wait is bounded by {@link #WAIT} unless a caller passes its own bound. Thread-safe
 * (one {@link HttpClient}); each {@link WatchStream} is read by the test thread that owns it.
 * {@link RawHttp} covers what HttpClient hides (chunk boundaries, a client that never reads).
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
    this(baseUrl, null);
  }

  /** Over TLS with {@code ssl} (e.g. {@code server.clientSslContext(user, groups...)}); null for plain HTTP. */
  KubeHttp(String baseUrl, javax.net.ssl.SSLContext ssl) {
    this.base = baseUrl;
    HttpClient.Builder b = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(WAIT);
    if (ssl != null) {
      b.sslContext(ssl);
    }
    this.client = b.build();
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

  /** The URI of {@code path} on this server. */
  URI uri(String path) {
    return URI.create(base + path);
  }

  /** Sends a request built by the caller (its own headers). */
  Response send(HttpRequest.Builder request) {
    return send(request.timeout(WAIT), "request");
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
    return openStream(collectionPathAndQuery + sep + "watch=true", parse);
  }

  /**
   * A GET whose query names the watch parameter itself (e.g. {@code watch=True}, as the
   * Python client spells it), read as a watch stream.
   */
  WatchStream openStream(String path, boolean parse) {
    return openStream(path, parse, "application/json");
  }

  /** A watch ({@code watch=true} is added) sent with its own Accept header, e.g. for Tables. */
  WatchStream watchAccepting(String collectionPathAndQuery, String accept) {
    String sep = collectionPathAndQuery.contains("?") ? "&" : "?";
    return openStream(collectionPathAndQuery + sep + "watch=true", true, accept);
  }

  private WatchStream openStream(String path, boolean parse, String accept) {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
        .header("Accept", accept)
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

  /** Drops every connection (open watches included) without waiting for them. */
  /** Waits (at most 15 s) until the CustomResourceDefinition {@code name} is Established. */
  void awaitEstablished(String name) {
    io.listwatch.testsupport.Await.until(name + " established", Duration.ofSeconds(15), () -> {
      for (JsonNode c : get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name).expect(200)
          .path("status").path("conditions")) {
        if (c.path("type").asText().equals("Established") && c.path("status").asText().equals("True")) {
          return true;
        }
      }
      return false;
    });
  }

  @Override
  public void close() {
    client.shutdownNow();
  }
}

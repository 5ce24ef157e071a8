package io.listwatch.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.bench.chaos.Operation.Outcome;
import io.listwatch.bench.chaos.Operation.Type;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The chaos clients' requests, each one {@link Operation} of the history: a ConfigMap of the
 * {@value #NAMESPACE} namespace created, updated with its resourceVersion as precondition,
 * deleted, read, or the namespace listed, over plain HTTP with a bounded timeout. A write puts
 * its value both in {@code data.value} and in the label {@value #LABEL}, so that a version
 * applied by halves shows.
 *
 * <p>Outcomes: 2xx is ok (and a read's 404: the key is absent); any other 4xx failed (it
 * changed nothing), and so did a request that could not connect (it was never sent); a 5xx, a
 * timeout or a lost connection is indeterminate. Only the ConfigMaps named {@code k<N>} are
 * the run's: others in the namespace (e.g. {@code kube-root-ca.crt}) are left out of reads.
 *
 * <p>Confined to the client thread that owns it (one process of the history).
 */
final class ConfigMapCalls {

  static final String NAMESPACE = "chaos";
  static final String LABEL = "chaos-value";
  static final Duration TIMEOUT = Duration.ofSeconds(4);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int process;
  private final List<URI> servers;
  private final History history;
  private final HttpClient http;

  ConfigMapCalls(int process, List<URI> servers, History history) {
    this.process = process;
    this.servers = servers;
    this.history = history;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
        .build();
  }

  /** Creates the namespace on {@code server}; true if it exists afterwards. */
  boolean createNamespace(int server) {
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE + "\"}}";
    try {
      HttpResponse<String> r = send(server, "POST", "/api/v1/namespaces", body);
      return r.statusCode() == 201 || r.statusCode() == 409;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  Operation create(int server, String key, String value) throws InterruptedException {
    return write(Type.CREATE, server, key, value, 0, "POST", collection(), body(key, value, 0));
  }

  Operation update(int server, String key, String value, long expectedRv) throws InterruptedException {
    return write(Type.UPDATE, server, key, value, expectedRv, "PUT", collection() + "/" + key,
        body(key, value, expectedRv));
  }

  Operation delete(int server, String key) throws InterruptedException {
    return write(Type.DELETE, server, key, null, 0, "DELETE", collection() + "/" + key, null);
  }

  Operation read(int server, String key) throws InterruptedException {
    long invoke = history.now();
    try {
      HttpResponse<String> r = send(server, "GET", collection() + "/" + key, null);
      long complete = history.now();
      if (r.statusCode() == 200) {
        Version v = version(JSON.readTree(r.body()));
        return record(new Operation(process, Type.READ, server, key, null, 0, invoke, complete, Outcome.OK, 200,
            v.rv(), List.of(v)));
      }
      Outcome o = r.statusCode() == 404 ? Outcome.OK : outcome(r.statusCode());
      return record(new Operation(process, Type.READ, server, key, null, 0, invoke, complete, o, r.statusCode(), 0,
          List.of()));
    } catch (IOException e) {
      return record(new Operation(process, Type.READ, server, key, null, 0, invoke, history.now(), failure(e), -1,
          0, List.of()));
    }
  }

  Operation list(int server) throws InterruptedException {
    long invoke = history.now();
    try {
      HttpResponse<String> r = send(server, "GET", collection(), null);
      long complete = history.now();
      if (r.statusCode() != 200) {
        return record(new Operation(process, Type.LIST, server, null, null, 0, invoke, complete,
            outcome(r.statusCode()), r.statusCode(), 0, List.of()));
      }
      JsonNode list = JSON.readTree(r.body());
      List<Version> items = new ArrayList<>();
      for (JsonNode item : list.path("items")) {
        Version v = version(item);
        if (ours(v.key())) {
          items.add(v);
        }
      }
      long rv = Long.parseLong(list.path("metadata").path("resourceVersion").asText("0"));
      return record(new Operation(process, Type.LIST, server, null, null, 0, invoke, complete, Outcome.OK, 200, rv,
          items));
    } catch (IOException e) {
      return record(new Operation(process, Type.LIST, server, null, null, 0, invoke, history.now(), failure(e),
          -1, 0, List.of()));
    }
  }

  private Operation write(Type type, int server, String key, String value, long expectedRv, String method,
      String path, String body) throws InterruptedException {
    long invoke = history.now();
    try {
      HttpResponse<String> r = send(server, method, path, body);
      long complete = history.now();
      Outcome o = outcome(r.statusCode());
      long rv = 0;
      if (o == Outcome.OK && type.writesValue()) {
        rv = version(JSON.readTree(r.body())).rv();
      }
      return record(new Operation(process, type, server, key, value, expectedRv, invoke, complete, o, r.statusCode(),
          rv, List.of()));
    } catch (IOException e) {
      return record(new Operation(process, type, server, key, value, expectedRv, invoke, history.now(), failure(e),
          -1, 0, List.of()));
    }
  }

  private Operation record(Operation op) {
    history.add(op);
    return op;
  }

  private HttpResponse<String> send(int server, String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(servers.get(server).resolve(path)).timeout(TIMEOUT)
        .header("Accept", "application/json");
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static Outcome outcome(int status) {
    if (status >= 200 && status < 300) {
      return Outcome.OK;
    }
    return status >= 400 && status < 500 ? Outcome.FAIL : Outcome.INFO;
  }

  /** A request that could not connect was never sent: it failed; any other I/O failure leaves it unknown. */
  private static Outcome failure(IOException e) {
    return e instanceof java.net.ConnectException || e instanceof java.net.http.HttpConnectTimeoutException
        ? Outcome.FAIL : Outcome.INFO;
  }

  /** Whether a ConfigMap is one of the run's keys ({@code k0}, {@code k1}, ...). */
  static boolean ours(String name) {
    return name.matches("k[0-9]+");
  }

  static String collection() {
    return "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
  }

  /** The version a ConfigMap's JSON shows. */
  static Version version(JsonNode cm) {
    JsonNode meta = cm.path("metadata");
    return new Version(meta.path("name").asText(), Long.parseLong(meta.path("resourceVersion").asText("0")),
        cm.path("data").path("value").asText(null), meta.path("labels").path(LABEL).asText(null));
  }

  private static String body(String key, String value, long rv) {
    ObjectNode cm = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    ObjectNode meta = cm.putObject("metadata").put("name", key).put("namespace", NAMESPACE);
    meta.putObject("labels").put(LABEL, value);
    if (rv != 0) {
      meta.put("resourceVersion", Long.toString(rv));
    }
    cm.putObject("data").put("value", value);
    return cm.toString();
  }
}

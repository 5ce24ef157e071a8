package io.listwatch.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.cacher.CacheWatcher;
import io.listwatch.apiserver.cacher.WatchSink;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.WatchStart;
import io.listwatch.storage.memory.MemoryStorage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The core answering requests in memory, with no socket: a MemoryStorage, a FakeClock, and
 * requests routed as the front door routes them.
 */
class GenericApiServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ConnectionInfo LOCAL = new ConnectionInfo(ConnectionInfo.Listener.INSECURE, List.of(), null);

  private final FakeClock clock = new FakeClock();
  private MemoryStorage storage;
  private GenericApiServer server;

  @BeforeEach
  void start() {
    storage = MemoryStorage.builder().open();
    server = GenericApiServer.builder(storage).clock(clock).build().start(List.of());
  }

  @AfterEach
  void stop() {
    server.close();
    storage.close();
  }

  private ApiRequest request(String method, String path, String body, Map<String, List<String>> query) {
    return new ApiRequest(method, path, query, Headers.of("Content-Type", "application/json"),
        body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), LOCAL, UserInfo.UNSECURED);
  }

  private ApiResponse send(String method, String path, String body) {
    ApiRequest r = request(method, path, body, Map.of());
    RequestInfo info = server.routes().requestInfo(r);
    return server.routes().handle(info, r).join();
  }

  private static JsonNode json(ApiResponse r) {
    Object value = r.body() instanceof ApiResponse.Value v ? v.value()
        : r.body() instanceof ApiResponse.CachedBody c ? c.object().json()
        : r.body() instanceof ApiResponse.JsonBytes j ? j.json() : null;
    return value instanceof byte[] bytes ? read(bytes) : JSON.valueToTree(value);
  }

  private static JsonNode read(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void start_createsKubesNamespaces() {
    for (String ns : GenericApiServer.INITIAL_NAMESPACES) {
      assertThat(json(send("GET", "/api/v1/namespaces/" + ns, null)).at("/status/phase").asText())
          .as(ns).isEqualTo("Active");
    }
  }

  @Test
  void start_createsKubesSystemPriorityClasses() {
    JsonNode node = json(send("GET", "/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical", null));
    assertThat(node.path("value").asLong()).isEqualTo(2_000_001_000L);
    assertThat(node.path("preemptionPolicy").asText()).isEqualTo("PreemptLowerPriority");
    assertThat(json(send("GET", "/apis/scheduling.k8s.io/v1/priorityclasses/system-cluster-critical", null))
        .path("value").asLong()).isEqualTo(2_000_000_000L);
  }

  @Test
  void start_createsKubesMandatoryFlowcontrolConfiguration() {
    String base = "/apis/flowcontrol.apiserver.k8s.io/v1/";
    JsonNode exempt = json(send("GET", base + "prioritylevelconfigurations/exempt", null));
    assertThat(exempt.path("spec").path("type").asText()).isEqualTo("Exempt");
    assertThat(exempt.at("/metadata/annotations/apf.kubernetes.io~1autoupdate-spec").asText()).isEqualTo("true");
    assertThat(json(send("GET", base + "prioritylevelconfigurations/catch-all", null))
        .at("/spec/limited/nominalConcurrencyShares").asInt()).isEqualTo(5);
    assertThat(json(send("GET", base + "flowschemas/exempt", null)).at("/spec/matchingPrecedence").asInt()).isEqualTo(1);
    JsonNode catchAll = json(send("GET", base + "flowschemas/catch-all", null));
    assertThat(catchAll.at("/spec/distinguisherMethod/type").asText()).isEqualTo("ByUser");
    assertThat(catchAll.at("/spec/rules/0/subjects/1/group/name").asText()).isEqualTo("system:authenticated");
  }

  /** kube's order: defaults, mutating admission (ServiceAccount), PrepareForCreate, validation, validating admission. */
  @Test
  void create_passesAdmission_inKubesOrder() {
    JsonNode pod = json(send("POST", "/api/v1/namespaces/default/pods",
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
    assertThat(pod.at("/spec/serviceAccountName").asText()).isEqualTo("default");
    assertThat(pod.at("/spec/restartPolicy").asText()).isEqualTo("Always");
    assertThat(pod.at("/status/phase").asText()).isEqualTo("Pending");

    assertThatThrownBy(() -> send("POST", "/api/v1/namespaces/nowhere/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}"))
        .cause().isInstanceOf(StatusException.class).hasMessage("namespaces \"nowhere\" not found");
    // validation comes before the validating plug-ins: an invalid object in a missing namespace is a 422
    assertThatThrownBy(() -> send("POST", "/api/v1/namespaces/nowhere/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"A_\"}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
  }

  /** kube answers the store's current revision, never "0", even for a resource never written. */
  @Test
  void listAtResourceVersionZero_ofAResourceNeverWritten_answersTheStoresCurrentRevision() {
    ApiRequest r = request("GET", "/api/v1/configmaps", null, Map.of("resourceVersion", List.of("0")));
    ApiResponse list = server.routes().handle(server.routes().requestInfo(r), r).join();

    assertThat(((ApiResponse.ListBody) list.body()).resourceVersion()).isEqualTo(storage.currentRevision())
        .isPositive();
  }

  @Test
  void create_thenGet_returnTheStoredObject_withItsResourceVersion() {
    ApiResponse created = send("POST", "/api/v1/namespaces/default/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
    assertThat(created.code()).isEqualTo(201);
    String rv = json(created).at("/metadata/resourceVersion").asText();

    JsonNode got = json(send("GET", "/api/v1/namespaces/default/configmaps/a", null));
    assertThat(got.at("/data/k").asText()).isEqualTo("v");
    assertThat(got.at("/metadata/resourceVersion").asText()).isEqualTo(rv);
    assertThatThrownBy(() -> send("GET", "/api/v1/namespaces/default/configmaps/b", null))
        .hasCauseInstanceOf(StatusException.class);
  }

  /** A watch goes through the same routes: the event of a create reaches the sink, serialized once. */
  @Test
  void watch_deliversTheEventOfACreate_toItsSink() {
    RecordingSink sink = new RecordingSink();
    ApiRequest watch = request("GET", "/api/v1/namespaces/default/configmaps", null,
        Map.of("watch", List.of("true"), "resourceVersion", List.of(
            json(send("GET", "/api/v1/namespaces/default/configmaps", null)).at("/metadata/resourceVersion").asText())));
    RequestInfo info = server.routes().requestInfo(watch);
    WatchStart start = (WatchStart) server.routes().handle(info, watch).join().body();
    CacheWatcher watcher = start.begin(sink).join().orElseThrow();
    watcher.drain();

    send("POST", "/api/v1/namespaces/default/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"watched\"}}");

    assertThat(sink.awaitLine()).as("an event within 10 s").isTrue();
    assertThat(sink.lines()).hasSize(1);
    JsonNode event = read(sink.lines().getFirst().getBytes(StandardCharsets.UTF_8));
    assertThat(event.path("type").asText()).isEqualTo("ADDED");
    assertThat(event.at("/object/metadata/name").asText()).isEqualTo("watched");
  }

  /** A sink that runs drains inline and records each event line. */
  private static final class RecordingSink implements WatchSink {
    private final List<String> lines = new ArrayList<>();
    private final java.util.concurrent.CountDownLatch firstLine = new java.util.concurrent.CountDownLatch(1);

    boolean awaitLine() {
      try {
        return firstLine.await(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    @Override
    public Executor executor() {
      return Runnable::run;
    }

    @Override
    public boolean isWritable() {
      return true;
    }

    @Override
    public synchronized void write(byte[][] parts) {
      StringBuilder all = new StringBuilder();
      for (byte[] p : parts) {
        all.append(new String(p, StandardCharsets.UTF_8));
      }
      for (String line : all.toString().split("\n")) {
        if (!line.isEmpty()) {
          lines.add(line);
          firstLine.countDown();
        }
      }
    }

    synchronized List<String> lines() {
      return List.copyOf(lines);
    }

    @Override
    public void flush() {
    }

    @Override
    public void end() {
    }

    @Override
    public void abort() {
    }
  }
}

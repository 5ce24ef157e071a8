package io.listwatch.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.features.FeatureGates;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchListener;
import io.listwatch.storage.memory.MemoryData;
import io.listwatch.storage.memory.MemoryStorage;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing (Jazzer) of the core's request path, with no socket: the same
 * {@code ApiRoutes.handle} the network server and the fake client run, over a
 * {@link MemoryStorage}. One input is one request, written as
 * <pre>
 * METHOD /path?query [content-type]     (the query form-encoded, as on the wire)
 * body...
 * </pre>
 * so the seeds under {@code ApiRequestFuzzTestInputs/request/} read as requests: JSON and
 * protobuf bodies of the built-in kinds, JSON Patch, merge patch, strategic merge patch and
 * apply YAML on objects made before the run (ConfigMap {@code default/cm}, Pod
 * {@code default/web}, Deployment {@code default/web}, a custom resource {@code default/w1}
 * whose schema carries CEL rules), CustomResourceDefinitions with their schemas and rules, and
 * list options in the query.
 *
 * <p>Invariants, each as the network server would show it:
 * <ul>
 *   <li>no 5xx: the only failures are 4xx {@link StatusException}s (the transport answers any
 *       other exception 500), and kube's 504 for a resourceVersion newer than the store's;
 *   <li>a refused request writes nothing to storage;
 *   <li>an acknowledged write is read back by a GET of its object (from the watch cache, which
 *       decodes the stored bytes as every reader does), and the answer decodes with
 *       {@link JsonLimits}' reader; after the run, a server started again on the same data serves
 *       every kept object;
 *   <li>memory bounded: no answer is more than {@value #GROWTH} times the request's size plus
 *       {@value #SLACK_BYTES} bytes (JSON Patch may copy up to 3 MiB, kube's limit).
 * </ul>
 *
 * <p>Not thread-safe: one server for the whole run, driven from the test thread.
 */
class ApiRequestFuzzTest {

  private static final int GROWTH = 16;
  private static final int SLACK_BYTES = 4 * 1024 * 1024;
  /** Acknowledged objects kept for the check after a restart; the rest are deleted again. */
  private static final int KEPT = 200;
  private static final int COMPACT_EVERY = 1_000;
  private static final ConnectionInfo LOCAL =
      new ConnectionInfo(ConnectionInfo.Listener.INSECURE, List.of(), null);
  private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");

  private static final FakeClock clock = new FakeClock();
  private static MemoryData data;
  private static MemoryStorage storage;
  private static RequestWrites writes;
  private static GenericApiServer server;
  private static final List<String> kept = new ArrayList<>();
  private static long requests;
  /** The code of the last request's refusal, 0 when it was answered. */
  private static int refusal;

  @BeforeAll
  static void start() {
    data = new MemoryData();
    storage = MemoryStorage.builder().data(data).open();
    writes = new RequestWrites(storage);
    server = GenericApiServer.builder(storage).clock(clock).wrapRequests(s -> writes)
        .build().start(List.of());
    // kube's unsafe delete on, so its option is validated and refused on readable objects
    server.routes().resources().featureGates(FeatureGates.parse("AllowUnsafeMalformedObjectDeletion=true"));
    for (String[] object : FuzzObjects.INITIAL) {
      ApiResponse r = send("POST", object[0], "application/json", object[1]);
      assertThat(r.code()).as(object[0]).isBetween(200, 299);
    }
    Await.until("the fuzzed custom resource is served", Duration.ofSeconds(30),
        () -> sendOr4xx("GET", FuzzObjects.WIDGETS, "", "").map(ApiResponse::code).orElse(404) == 200);
    ApiResponse w1 = send("POST", FuzzObjects.WIDGETS, "application/json", FuzzObjects.WIDGET);
    assertThat(w1.code()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    kept.removeIf(path -> code(server, path) != 200); // deleted by a later input
    server.close();
    storage.close();
    // A server started again on the same data serves every object the run kept.
    try (MemoryStorage again = MemoryStorage.builder().data(data).open()) {
      GenericApiServer restarted = GenericApiServer.builder(again).clock(new FakeClock()).build()
          .start(List.of());
      try {
        for (String path : kept) {
          // custom resources are served again once their definitions are read back
          Await.until("GET " + path + " after a restart answers 200", Duration.ofSeconds(30),
              () -> code(restarted, path), code -> code == 200);
        }
      } finally {
        restarted.close();
      }
    }
  }

  private static int code(GenericApiServer on, String path) {
    ApiRequest r = request("GET", path, "", "");
    try {
      return on.routes().handle(on.routes().requestInfo(r), r).join().code();
    } catch (StatusException e) {
      return e.code();
    } catch (CompletionException e) {
      if (e.getCause() instanceof StatusException status) {
        return status.code();
      }
      throw e;
    }
  }

  @FuzzTest(maxDuration = "3m")
  void request(byte[] input) {
    int newline = 0;
    while (newline < input.length && input[newline] != '\n') {
      newline++;
    }
    String[] head = new String(input, 0, newline, StandardCharsets.UTF_8).split(" ", 3);
    if (head.length < 2 || !METHODS.contains(head[0]) || !head[1].startsWith("/")) {
      return;
    }
    String contentType = head.length == 3 ? head[2] : "application/json";
    byte[] bodyBytes = newline < input.length
        ? Arrays.copyOfRange(input, newline + 1, input.length) : new byte[0];

    writes.begin();
    Optional<ApiResponse> answer;
    try {
      answer = sendOr4xx(head[0], head[1], contentType, bodyBytes);
    } finally {
      writes.end();
    }
    if (answer.isEmpty() || answer.get().code() >= 400) {
      answer.ifPresent(r -> assertThat(r.code()).as("answer to a refused request").isBetween(400, 499));
      List<String> written = new ArrayList<>(writes.keys());
      if (refusal == 409) {
        // kube's ResourceQuota admission charges the quota before the object is stored; a
        // create refused by storage (AlreadyExists) leaves the charge for the quota
        // controller to recount, as kube's does.
        written.removeIf(key -> key.startsWith("/registry/core/resourcequotas/"));
      }
      assertThat(written).as("written by a refused request").isEmpty();
      return;
    }
    ApiResponse ok = answer.get();
    long size = 0;
    Optional<byte[][]> parts = ok.jsonParts();
    for (byte[] part : parts.orElse(new byte[0][])) {
      size += part.length;
    }
    assertThat(size).as("answer size").isLessThanOrEqualTo((long) GROWTH * input.length + SLACK_BYTES);
    if (!List.of("POST", "PUT", "PATCH").contains(head[0]) || parts.isEmpty() || writes.keys().isEmpty()) {
      return;
    }
    JsonNode written = readAsReader(parts.get());
    String path = objectPath(head[0], head[1], written);
    if (path == null) {
      return;
    }
    Optional<ApiResponse> readBack = sendOr4xx("GET", path, "", "");
    if (readBack.isEmpty() && refusal == 404 && deletionCompleted(written)) {
      return;
    }
    ApiResponse read = readBack.orElseThrow(
        () -> new AssertionError("GET " + path + " of an acknowledged write answered " + refusal));
    assertThat(read.code()).as("GET %s of an acknowledged write", path).isEqualTo(200);
    JsonNode back = readAsReader(read.jsonParts().orElseThrow());
    assertThat(back.at("/metadata/uid").asText()).isEqualTo(written.at("/metadata/uid").asText());
    if (++requests % COMPACT_EVERY == 0) {
      storage.compact(storage.currentRevision()).join();
    }
    if (head[0].equals("POST")) {
      if (kept.size() < KEPT) {
        kept.add(path);
      } else {
        sendOr4xx("DELETE", path, "", "");
      }
    }
  }

  /**
   * Whether an acknowledged write was one that completes a deletion: it took the last finalizer
   * off an object being deleted with no grace period left, so the store removed the object after
   * writing it (kube's registry does the same), and a GET of it rightly answers 404. A campaign
   * found this (an update of a ConfigMap, marked for deletion by an earlier input, without its
   * finalizers). An object still in its grace period (a pod) is not removed, and must read back.
   */
  private static boolean deletionCompleted(JsonNode written) {
    JsonNode metadata = written.path("metadata");
    return !metadata.path("deletionTimestamp").asText("").isEmpty() && metadata.path("finalizers").isEmpty()
        && metadata.path("deletionGracePeriodSeconds").asLong(0) == 0;
  }

  /**
   * The path of the object an acknowledged write answered with: the request's own for an
   * update or patch (without a subresource), the collection's plus the name for a create.
   */
  private static String objectPath(String method, String requestPath, JsonNode written) {
    String name = written.at("/metadata/name").asText("");
    if (name.isEmpty() || !written.has("kind") || written.path("kind").asText().endsWith("List")
        || written.path("kind").asText().equals("Status")) {
      return null;
    }
    RequestInfo info = server.routes().requestInfo(request(method, requestPath, "", ""));
    if (!info.resourceRequest() || !info.subresource().isEmpty()) {
      return null;
    }
    String base = info.group().isEmpty() ? "/api/" + info.version()
        : "/apis/" + info.group() + "/" + info.version();
    String namespace = written.at("/metadata/namespace").asText("");
    return base + (namespace.isEmpty() ? "" : "/namespaces/" + namespace) + "/" + info.resource() + "/" + name;
  }

  private static JsonNode readAsReader(byte[][] parts) {
    try {
      int length = 0;
      for (byte[] p : parts) {
        length += p.length;
      }
      byte[] all = new byte[length];
      int at = 0;
      for (byte[] p : parts) {
        System.arraycopy(p, 0, all, at, p.length);
        at += p.length;
      }
      return JsonLimits.mapper().readTree(all);
    } catch (IOException e) {
      throw new AssertionError("an answer no reader can read", e);
    }
  }

  private static ApiResponse send(String method, String pathAndQuery, String contentType, String body) {
    return sendOr4xx(method, pathAndQuery, contentType, body.getBytes(StandardCharsets.UTF_8))
        .orElseThrow(() -> new AssertionError(method + " " + pathAndQuery + " refused"));
  }

  private static Optional<ApiResponse> sendOr4xx(String method, String pathAndQuery, String contentType,
      String body) {
    return sendOr4xx(method, pathAndQuery, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  /** The answer, or empty after a 4xx StatusException; any other failure fails the input. */
  private static Optional<ApiResponse> sendOr4xx(String method, String pathAndQuery, String contentType,
      byte[] body) {
    ApiRequest r = request(method, pathAndQuery, contentType, body);
    refusal = 0;
    try {
      ApiResponse response = answer(server.routes().handle(server.routes().requestInfo(r), r));
      response.jsonParts(); // encoded as the transport encodes it
      return Optional.of(response);
    } catch (StatusException | CompletionException e) {
      Throwable cause = e;
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (!(cause instanceof StatusException status)) {
        throw new AssertionError("would answer 500", cause);
      }
      if (status.code() >= 500 && !tooLargeResourceVersion(status)) {
        fail("answered %d: %s", status.code(), status.getMessage());
      }
      refusal = status.code();
      return Optional.empty();
    }
  }

  /**
   * The answer, letting the fake time run while the request waits on it (a resourceVersion the
   * store has not reached waits up to 3 s, as kube's); a request still waiting after a minute of
   * it, or ten seconds of real time, fails the input.
   */
  private static ApiResponse answer(CompletableFuture<ApiResponse> pending) {
    for (int second = 0; second < 60 && !pending.isDone(); second++) {
      try {
        return pending.get(second == 0 ? 1_000 : 100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        writes.untracked(() -> clock.advance(Duration.ofSeconds(1))); // the timers' writes are not the request's
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      } catch (ExecutionException e) {
        throw new CompletionException(e.getCause());
      }
    }
    try {
      return pending.get(10, TimeUnit.SECONDS);
    } catch (TimeoutException | InterruptedException e) {
      throw new AssertionError("no answer: the request hangs", e);
    } catch (ExecutionException e) {
      throw new CompletionException(e.getCause());
    }
  }

  /**
   * kube's one 5xx for a request's own values: a resourceVersion newer than the store's, which
   * kube answers 504 with the cause ResourceVersionTooLarge once it has waited for it.
   */
  private static boolean tooLargeResourceVersion(StatusException status) {
    return status.code() == 504 && status.getMessage().startsWith("Too large resource version");
  }

  private static ApiRequest request(String method, String pathAndQuery, String contentType, String body) {
    return request(method, pathAndQuery, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  private static ApiRequest request(String method, String pathAndQuery, String contentType, byte[] body) {
    int q = pathAndQuery.indexOf('?');
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (q >= 0) {
      for (String pair : pathAndQuery.substring(q + 1).split("&")) {
        int eq = pair.indexOf('=');
        query.computeIfAbsent(decode(eq < 0 ? pair : pair.substring(0, eq)), k -> new ArrayList<>())
            .add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
      }
    }
    Headers headers = contentType.isEmpty() ? Headers.empty() : Headers.of("Content-Type", contentType);
    return new ApiRequest(method, q < 0 ? pathAndQuery : pathAndQuery.substring(0, q), query, headers, body,
        LOCAL, UserInfo.UNSECURED);
  }

  /** A query component as the transport decodes it; a malformed escape stays as it is. */
  private static String decode(String component) {
    try {
      return URLDecoder.decode(component, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return component;
    }
  }

  /**
   * The storage the routes write through, noting the keys written on the test thread while a
   * request is handled (the core's own controllers write on theirs).
   */
  private static final class RequestWrites implements Storage {
    private final Storage delegate;
    private final List<String> keys = new ArrayList<>();
    private Thread recording;

    RequestWrites(Storage delegate) {
      this.delegate = delegate;
    }

    void begin() {
      keys.clear();
      recording = Thread.currentThread();
    }

    void end() {
      recording = null;
    }

    /** Runs {@code task} on this thread without noting its writes. */
    void untracked(Runnable task) {
      Thread was = recording;
      recording = null;
      try {
        task.run();
      } finally {
        recording = was;
      }
    }

    List<String> keys() {
      return keys;
    }

    private void note(String key) {
      if (Thread.currentThread() == recording) {
        keys.add(key);
      }
    }

    @Override
    public CompletableFuture<Optional<KeyValue>> get(String key, long revision) {
      return delegate.get(key, revision);
    }

    @Override
    public CompletableFuture<RangeResult> range(RangeRequest request) {
      return delegate.range(request);
    }

    @Override
    public CompletableFuture<KeyValue> create(String key, byte[] value) {
      return delegate.create(key, value).thenApply(kv -> {
        note(key);
        return kv;
      });
    }

    @Override
    public CompletableFuture<KeyValue> update(String key, byte[] value, long expectedModRevision) {
      return delegate.update(key, value, expectedModRevision).thenApply(kv -> {
        note(key);
        return kv;
      });
    }

    @Override
    public CompletableFuture<KeyValue> delete(String key, long expectedModRevision) {
      return delegate.delete(key, expectedModRevision).thenApply(kv -> {
        note(key);
        return kv;
      });
    }

    @Override
    public Watch watch(String prefix, long fromRevision, WatchListener listener) {
      return delegate.watch(prefix, fromRevision, listener);
    }

    @Override
    public long currentRevision() {
      return delegate.currentRevision();
    }

    @Override
    public long compactedRevision() {
      return delegate.compactedRevision();
    }

    @Override
    public CompletableFuture<Void> compact(long revision) {
      return delegate.compact(revision);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}

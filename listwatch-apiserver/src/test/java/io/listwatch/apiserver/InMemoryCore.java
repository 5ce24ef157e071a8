package io.listwatch.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.storage.memory.MemoryStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * The core as the core's tests drive it: a started {@link GenericApiServer} on a
 * {@link MemoryStorage} and a {@link FakeClock}, and requests routed as the front door routes
 * them, acting as the cluster admin. One per test; {@link #close()} stops it.
 */
public final class InMemoryCore implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  public final FakeClock clock;
  public final MemoryStorage storage;
  public final GenericApiServer server;

  private InMemoryCore(FakeClock clock) {
    this.clock = clock;
    this.storage = MemoryStorage.builder().open();
    this.server = GenericApiServer.builder(storage).clock(clock).build().start(List.of());
  }

  /** A core on a new fake clock. */
  public static InMemoryCore start() {
    return start(new FakeClock());
  }

  /** A core on {@code clock}. */
  public static InMemoryCore start(FakeClock clock) {
    return new InMemoryCore(clock);
  }

  /** Routes a request with a JSON body (or none, for a null {@code body}) and waits for the answer. */
  public ApiResponse send(String method, String path, Map<String, List<String>> query, String body) {
    return send(request(method, path, query, body));
  }

  /** Routes {@code request} and waits for the answer. */
  public ApiResponse send(ApiRequest request) {
    return server.routes().handle(server.routes().requestInfo(request), request).join();
  }

  /** A request with a JSON body (or none, for a null {@code body}), from an unsecured client. */
  public static ApiRequest request(String method, String path, Map<String, List<String>> query, String body) {
    return new ApiRequest(method, path, query,
        body == null ? Headers.empty() : Headers.of("Content-Type", "application/json"),
        body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), ConnectionInfo.insecure(null),
        UserInfo.UNSECURED);
  }

  /** The Status a request is refused with, thrown at once or through the answer; fails if it is answered. */
  public StatusException refusal(String method, String path, Map<String, List<String>> query, String body) {
    RuntimeException e = catchThrowableOfType(RuntimeException.class, () -> send(method, path, query, body));
    assertThat(e).as("refused: " + method + " " + path + (body == null ? "" : " " + body)).isNotNull();
    return (StatusException) (e instanceof CompletionException ? e.getCause() : e);
  }

  /** {@code s} as a JSON object. */
  public static ObjectNode json(String s) {
    try {
      return (ObjectNode) JSON.readTree(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.close();
    storage.close();
  }
}

package io.listwatch.apiserver.allocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.UserInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * Requests about Services to any {@link GenericApiServer} (the tests of allocation run several
 * servers on one storage), as the cluster admin, and their answers as JSON.
 */
public final class ServiceRequests {

  private static final ObjectMapper JSON = new ObjectMapper();
  public static final String SERVICES = "/api/v1/namespaces/default/services";

  private ServiceRequests() {
  }

  /** A Service named {@code name} with {@code spec} (JSON). */
  public static String service(String name, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}";
  }

  public static ApiResponse send(GenericApiServer server, String method, String path, Map<String, List<String>> query,
      String body) {
    ApiRequest request = new ApiRequest(method, path, query,
        body == null ? Headers.empty() : Headers.of("Content-Type", "application/json"),
        body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), ConnectionInfo.insecure(null),
        UserInfo.UNSECURED);
    return server.routes().handle(server.routes().requestInfo(request), request).join();
  }

  /** The stored object a write answered with; fails unless it succeeded. */
  public static ObjectNode ok(GenericApiServer server, String method, String path, Map<String, List<String>> query,
      String body) {
    ApiResponse response = send(server, method, path, query, body);
    assertThat(response.code()).as(method + " " + path + " " + body).isBetween(200, 201);
    return body(response);
  }

  /** Creates the Service {@code name} with {@code spec}; returns it as stored. */
  public static ObjectNode create(GenericApiServer server, String name, String spec) {
    return ok(server, "POST", SERVICES, Map.of(), service(name, spec));
  }

  /** The Status a request is refused with. */
  public static StatusException refusal(GenericApiServer server, String method, String path,
      Map<String, List<String>> query, String body) {
    RuntimeException e = catchThrowableOfType(RuntimeException.class, () -> {
      ApiResponse r = send(server, method, path, query, body);
      throw new AssertionError("answered " + r.code() + ": " + (r.jsonParts().isPresent() ? body(r) : r));
    });
    assertThat(e).isNotNull();
    return (StatusException) (e instanceof CompletionException ? e.getCause() : e);
  }

  /** "field: message" of each cause of {@code e}. */
  public static List<String> causes(StatusException e) {
    return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  public static ObjectNode body(ApiResponse response) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : response.jsonParts().orElseThrow()) {
      out.writeBytes(part);
    }
    try {
      return (ObjectNode) JSON.readTree(out.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

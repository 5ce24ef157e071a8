package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code Status} body of errors that are not about one verb's semantics (docs/compatibility.md, "Errors"):
 * unknown paths, missing objects, unsupported methods and malformed query parameters. Every
 * one must be a JSON Status whose {@code code} repeats the HTTP status and whose
 * {@code reason} is kube's, because client-go's {@code errors.IsXxx} and the typed clients
 * decode exactly that.
 */
@ExtendWith(ApiServerExtension.class)
class ErrorStatusTest {

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  @Test
  void unknownPaths_answer404NotFoundStatus() {
    for (String path : List.of("/api/v1/widgets", "/api/v2/pods", "/apis/nope.example.com/v1",
        "/apis/apps/v9/deployments", "/apis/apps/v1/namespaces/default/widgets", "/nothing/here",
        "/api/v1/configmaps/name-without-namespace")) {
      JsonNode s = assertFailureStatus(http.get(path), 404, "NotFound");
      assertThat(s.path("message").asText()).as("message for %s", path)
          .isEqualTo("the server could not find the requested resource");
    }
  }

  @Test
  void missingObjects_answer404NotFoundStatusNamingTheResource() {
    JsonNode core = assertFailureStatus(http.get("/api/v1/namespaces/default/configmaps/absent"), 404, "NotFound");
    assertThat(core.path("message").asText()).isEqualTo("configmaps \"absent\" not found");
    assertThat(core.at("/details/name").asText()).isEqualTo("absent");
    assertThat(core.at("/details/kind").asText()).isEqualTo("configmaps");

    JsonNode apps = assertFailureStatus(http.get("/apis/apps/v1/namespaces/default/deployments/absent"), 404,
        "NotFound");
    assertThat(apps.path("message").asText()).isEqualTo("deployments.apps \"absent\" not found");
    assertThat(apps.at("/details/group").asText()).isEqualTo("apps");
    assertThat(apps.at("/details/kind").asText()).isEqualTo("deployments");

    JsonNode clusterScoped = assertFailureStatus(http.get("/api/v1/namespaces/absent-namespace"), 404, "NotFound");
    assertThat(clusterScoped.at("/details/kind").asText()).isEqualTo("namespaces");
  }

  @Test
  void unsupportedMethods_answer405MethodNotAllowedStatus() {
    byte[] body = configMap("x").toString().getBytes(StandardCharsets.UTF_8);
    assertFailureStatus(http.send("PUT", "/api/v1/namespaces/default/configmaps", "application/json", body), 405,
        "MethodNotAllowed");
    assertFailureStatus(http.send("POST", "/api/v1/namespaces/default/configmaps/x", "application/json", body), 405,
        "MethodNotAllowed");
    assertFailureStatus(http.send("POST", "/api/v1", "application/json", body), 405, "MethodNotAllowed");
  }

  @Test
  void malformedQueryParameters_answer400BadRequestStatus() {
    String cms = "/api/v1/namespaces/default/configmaps";
    for (String query : List.of("?resourceVersion=abc", "?resourceVersion=-1", "?limit=ten")) {
      assertFailureStatus(http.get(cms + query), 400, "BadRequest");
    }
    try (WatchStream w = http.openWatch(cms + "?timeoutSeconds=soon")) {
      assertFailureStatus(new KubeHttp.Response(w.code(), w.headers(), w.readAll()), 400, "BadRequest");
    }
  }
}

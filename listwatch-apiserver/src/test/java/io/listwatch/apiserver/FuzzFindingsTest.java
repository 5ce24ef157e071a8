package io.listwatch.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.UserInfo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What coverage-guided fuzzing of the core ({@link ApiRequestFuzzTest}) found, each as a plain
 * request: the input that broke an invariant, and what the server answers now (kube's answer).
 */
class FuzzFindingsTest {

  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final String APPLY = "application/apply-patch+yaml";

  private InMemoryCore core;

  @BeforeEach
  void start() {
    core = InMemoryCore.start();
    assertThat(core.send("POST", CONFIGMAPS, Map.of(),
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"},\"data\":{\"a\":\"1\"}}").code())
        .isEqualTo(201);
  }

  @AfterEach
  void stop() {
    core.close();
  }

  /** Was 500 "Property 'metadata' has value that is not of type ObjectNode" (FieldManager). */
  @Test
  void apply_withNullMetadata_appliesAsWithoutMetadata() {
    ApiResponse r = core.send(apply(CONFIGMAPS + "/cm", "apiVersion: v1\nkind: ConfigMap\nmetadata:\ndata:\n  a: applied\n"));
    assertThat(r.code()).isEqualTo(200);
    assertThat(data(CONFIGMAPS + "/cm")).contains("\"a\":\"applied\"");
  }

  @Test
  void apply_withMetadataThatIsNotAMap_isRefused400_andChangesNothing() {
    long before = core.storage.currentRevision();
    StatusException e = refusal(apply(CONFIGMAPS + "/cm", "apiVersion: v1\nkind: ConfigMap\nmetadata: 5\ndata:\n  a: x\n"));
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.getMessage()).isEqualTo("failed to create typed patch object (default/cm; v1, Kind=ConfigMap):"
        + " .metadata: expected map, got 5");
    assertThat(core.storage.currentRevision()).isEqualTo(before);
  }

  /**
   * Was 500 "associative list with keys has an element that omits key field" (the applied
   * configuration's ports item had a misspelt {@code containerPort}). kube-apiserver answers it
   * 500 with the same message; listwatch 400, as for other bad input, before anything is written.
   */
  @Test
  void apply_ofAListMapItemWithoutItsKey_isRefused400_withThePath_andChangesNothing() {
    long before = core.storage.currentRevision();
    StatusException e = refusal(apply("/api/v1/namespaces/default/pods/web", """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
        spec:
          containers:
          - name: nginx
            image: nginx:1.30
            ports:
            - contailerPort: 80
              protocol: TCP
        """));
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.getMessage()).isEqualTo("failed to create typed patch object (default/web; v1, Kind=Pod):"
        + " .spec.containers[name=\"nginx\"].ports: element 0: associative list with keys has an element that"
        + " omits key field \"containerPort\" (and doesn't have default value)");
    assertThat(core.storage.currentRevision()).isEqualTo(before);
  }

  /**
   * Found as a false alarm of the fuzz harness ("GET ... of an acknowledged write refused"): an
   * update without the finalizers of an object being deleted is answered 200 with the object, and
   * completes the deletion, so the object is gone after it, as in kube's registry. The harness now
   * expects the 404 for such an answer.
   */
  @Test
  void update_thatDropsTheLastFinalizerOfAnObjectBeingDeleted_answers200_andTheObjectIsGone() throws Exception {
    assertThat(core.send("PUT", CONFIGMAPS + "/cm", Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
        + "\"metadata\":{\"name\":\"cm\",\"finalizers\":[\"example.com/hold\"]},\"data\":{\"a\":\"1\"}}").code())
        .isEqualTo(200);
    assertThat(core.send("DELETE", CONFIGMAPS + "/cm", Map.of(), null).code()).isEqualTo(200);
    assertThat(data(CONFIGMAPS + "/cm")).contains("\"deletionTimestamp\"");

    ApiResponse r = core.send("PUT", CONFIGMAPS + "/cm", Map.of(),
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"},\"dame\":{\"a\":\"4\"}}");
    assertThat(r.code()).isEqualTo(200);
    JsonNode answered = new ObjectMapper().readTree(r.jsonParts().orElseThrow()[0]);
    assertThat(answered.at("/metadata/deletionTimestamp").asText()).isNotEmpty();
    assertThat(answered.at("/metadata/finalizers").isMissingNode()).isTrue();
    assertThat(refusal(new ApiRequest("GET", CONFIGMAPS + "/cm", Map.of(), Headers.empty(), new byte[0],
        ConnectionInfo.insecure(null), UserInfo.UNSECURED)).code()).isEqualTo(404);
  }

  private String data(String path) {
    return new String(core.send("GET", path, Map.of(), null).jsonParts().orElseThrow()[0], StandardCharsets.UTF_8);
  }

  private StatusException refusal(ApiRequest request) {
    try {
      ApiResponse r = core.send(request);
      throw new AssertionError("answered " + r.code());
    } catch (StatusException e) {
      return e;
    } catch (java.util.concurrent.CompletionException e) {
      return (StatusException) e.getCause();
    }
  }

  private static ApiRequest apply(String path, String yaml) {
    return new ApiRequest("PATCH", path, Map.of("fieldManager", List.of("test"), "force", List.of("true")),
        Headers.of("Content-Type", APPLY), yaml.getBytes(StandardCharsets.UTF_8), ConnectionInfo.insecure(null),
        UserInfo.UNSECURED);
  }
}

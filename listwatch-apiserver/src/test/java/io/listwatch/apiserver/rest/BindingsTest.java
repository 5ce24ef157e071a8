package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's create-only {@code bindings} resource: {@code POST /api/v1/namespaces/{ns}/bindings}
 * binds the pod the Binding names as {@code pods/{name}/binding} does.
 */
class BindingsTest {

  private static final String BINDINGS = "/api/v1/namespaces/default/bindings";
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String BINDING =
      "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"%s\"},\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private static ObjectNode body(ApiResponse r) {
    return InMemoryCore.json(new String(r.jsonParts().orElseThrow()[0], StandardCharsets.UTF_8));
  }

  private void createPod(String extraSpec) {
    assertThat(core.send("POST", PODS, Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]" + extraSpec + "}}").code()).isEqualTo(201);
  }

  @Test
  void aPendingPod_isBound_201Success() {
    createPod("");
    ApiResponse r = core.send("POST", BINDINGS, Map.of(), BINDING.formatted("p"));
    assertThat(r.code()).isEqualTo(201);
    assertThat(body(r).path("kind").asText()).isEqualTo("Status");
    assertThat(body(r).path("status").asText()).isEqualTo("Success");
    ObjectNode pod = body(core.send("GET", PODS + "/p", Map.of(), null));
    assertThat(pod.at("/spec/nodeName").asText()).isEqualTo("n1");
    assertThat(pod.at("/status/conditions").findValuesAsText("type")).contains("PodScheduled");
  }

  @Test
  void aBoundPod_is409() {
    createPod(",\"nodeName\":\"n0\"");
    StatusException e = core.refusal("POST", BINDINGS, Map.of(), BINDING.formatted("p"));
    assertThat(e.code()).isEqualTo(409);
    assertThat(e.reason()).isEqualTo("Conflict");
    assertThat(e.status().message())
        .isEqualTo("Operation cannot be fulfilled on pods \"p\": pod p is already assigned to node \"n0\"");
  }

  @Test
  void aMissingPod_is404() {
    StatusException e = core.refusal("POST", BINDINGS, Map.of(), BINDING.formatted("nope"));
    assertThat(e.code()).isEqualTo(404);
    assertThat(e.status().message()).isEqualTo("pods \"nope\" not found");
  }

  @Test
  void aBindingWithoutAName_is400() {
    StatusException e = core.refusal("POST", BINDINGS, Map.of(), BINDING.formatted(""));
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.status().message()).isEqualTo("Name parameter required.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"GET", "PUT", "DELETE"})
  void otherVerbs_are405(String method) {
    createPod("");
    assertThat(core.refusal(method, BINDINGS + (method.equals("GET") ? "" : "/p"), Map.of(),
        method.equals("PUT") ? BINDING.formatted("p") : null).code()).isEqualTo(405);
  }

  @Test
  void aWatch_is405() {
    assertThat(core.refusal("GET", BINDINGS, Map.of("watch", java.util.List.of("true")), null).code()).isEqualTo(405);
  }

  @Test
  void discovery_listsBindings_createOnly() {
    JsonNode resources = body(core.send("GET", "/api/v1", Map.of(), null)).path("resources");
    JsonNode bindings = null;
    for (JsonNode r : resources) {
      if (r.path("name").asText().equals("bindings")) {
        bindings = r;
      }
    }
    assertThat(bindings).as("bindings in /api/v1").isNotNull();
    assertThat(bindings.path("kind").asText()).isEqualTo("Binding");
    assertThat(bindings.path("namespaced").asBoolean()).isTrue();
    assertThat(bindings.path("verbs")).extracting(JsonNode::asText).containsExactly("create");
  }
}

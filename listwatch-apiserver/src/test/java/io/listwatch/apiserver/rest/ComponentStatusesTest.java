package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.printers.ColumnDefinition;
import io.listwatch.apiserver.printers.TableRow;
import io.listwatch.apiserver.request.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's deprecated, read-only {@code componentstatuses}: get, list, the warning, the table. */
class ComponentStatusesTest {

  private static final String CS = "/api/v1/componentstatuses";
  private static final String WARNING = "299 - \"v1 ComponentStatus is deprecated in v1.19+\"";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private static ObjectNode body(ApiResponse r) {
    StringBuilder s = new StringBuilder();
    for (byte[] part : r.jsonParts().orElseThrow()) {
      s.append(new String(part, StandardCharsets.UTF_8));
    }
    return InMemoryCore.json(s.toString());
  }

  @Test
  void list_theStorageHealthy_theOutsideComponentsUnknown_withTheWarning() {
    ApiResponse r = core.send("GET", CS, Map.of(), null);
    assertThat(r.code()).isEqualTo(200);
    assertThat(r.headers().get("Warning")).containsExactly(WARNING);
    ObjectNode list = body(r);
    assertThat(list.path("kind").asText()).isEqualTo("ComponentStatusList");
    assertThat(list.path("items").findValuesAsText("name")).containsExactly("etcd-0", "scheduler", "controller-manager");
    JsonNode etcd = list.path("items").get(0).at("/conditions/0");
    assertThat(etcd.path("type").asText()).isEqualTo("Healthy");
    assertThat(etcd.path("status").asText()).isEqualTo("True");
    assertThat(etcd.path("message").asText()).isEqualTo("ok");
    assertThat(etcd.has("error")).isFalse();
    JsonNode scheduler = list.path("items").get(1).at("/conditions/0");
    assertThat(scheduler.path("status").asText()).isEqualTo("Unknown");
    assertThat(scheduler.path("message").asText())
        .isEqualTo("listwatch does not probe the scheduler: it runs outside the server");
  }

  @ParameterizedTest
  @ValueSource(strings = {"etcd-0", "scheduler", "controller-manager"})
  void get_oneComponent_withTheWarning(String name) {
    ApiResponse r = core.send("GET", CS + "/" + name, Map.of(), null);
    assertThat(r.code()).isEqualTo(200);
    assertThat(r.headers().get("Warning")).containsExactly(WARNING);
    ObjectNode cs = body(r);
    assertThat(cs.path("kind").asText()).isEqualTo("ComponentStatus");
    assertThat(cs.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(cs.at("/metadata/name").asText()).isEqualTo(name);
    assertThat(cs.at("/conditions/0/type").asText()).isEqualTo("Healthy");
  }

  @Test
  void aWatch_is405_asKubeAnswersForAResourceWithoutWatch() {
    assertThat(core.refusal("GET", CS, Map.of("watch", List.of("true")), null).code()).isEqualTo(405);
  }

  @Test
  void get_anUnknownComponent_is404() {
    assertThat(core.refusal("GET", CS + "/kubelet", Map.of(), null).code()).isEqualTo(404);
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PUT", "DELETE"})
  void writes_are405(String method) {
    assertThat(core.refusal(method, CS + (method.equals("POST") ? "" : "/scheduler"), Map.of(),
        method.equals("DELETE") ? null : "{\"metadata\":{\"name\":\"scheduler\"}}").code()).isEqualTo(405);
  }

  @Test
  void discovery_listsComponentStatuses_getAndList_shortNameCs() {
    JsonNode cs = null;
    for (JsonNode r : body(core.send("GET", "/api/v1", Map.of(), null)).path("resources")) {
      if (r.path("name").asText().equals("componentstatuses")) {
        cs = r;
      }
    }
    assertThat(cs).as("componentstatuses in /api/v1").isNotNull();
    assertThat(cs.path("namespaced").asBoolean()).isFalse();
    assertThat(cs.path("kind").asText()).isEqualTo("ComponentStatus");
    assertThat(cs.path("verbs")).extracting(JsonNode::asText).containsExactly("get", "list");
    assertThat(cs.path("shortNames")).extracting(JsonNode::asText).containsExactly("cs");
  }

  @Test
  void table_nameStatusMessageError_asKubePrintsTheHealthyCondition() {
    var convertor = core.server.routes().resources().registry().find("", "v1", "componentstatuses").orElseThrow()
        .tableConvertor();
    assertThat(convertor.columnDefinitions()).extracting(ColumnDefinition::name)
        .containsExactly("Name", "Status", "Message", "Error");
    assertThat(row(convertor, "{\"metadata\":{\"name\":\"etcd-0\"},\"conditions\":[{\"type\":\"Healthy\","
        + "\"status\":\"True\",\"message\":\"ok\"}]}")).isEqualTo(TableRow.of("etcd-0", "Healthy", "ok", ""));
    assertThat(row(convertor, "{\"metadata\":{\"name\":\"scheduler\"},\"conditions\":[{\"type\":\"Healthy\","
        + "\"status\":\"Unknown\",\"error\":\"e\"}]}")).isEqualTo(TableRow.of("scheduler", "Unhealthy", "", "e"));
    assertThat(row(convertor, "{\"metadata\":{\"name\":\"x\"}}")).isEqualTo(TableRow.of("x", "Unknown", "", ""));
  }

  private static TableRow row(io.listwatch.apiserver.printers.TableConvertor convertor, String json) {
    return convertor.row(InMemoryCore.json(json), Instant.EPOCH);
  }
}

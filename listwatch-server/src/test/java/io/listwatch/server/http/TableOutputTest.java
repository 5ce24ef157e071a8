package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Tables on the wire: what {@code kubectl get} asks for, on get, list and watch. */
@ExtendWith(ApiServerExtension.class)
class TableOutputTest {

  /** What kubectl 1.32 sends for human-readable output. */
  private static final String TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,"
      + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

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
  void list_asTable_carriesResourceVersionContinueAndOneRowPerObject() {
    String ns = http.createNamespace("table-list");
    for (String name : List.of("a", "b", "c")) {
      http.create("/api/v1/namespaces/" + ns + "/pods", KubeHttp.pod(name, Map.of("app", name), "node-1"));
    }

    KubeHttp.Response r = http.get("/api/v1/namespaces/" + ns + "/pods?limit=2", TABLE_ACCEPT);
    JsonNode table = r.expect(200);

    assertThat(r.contentType()).startsWith("application/json");
    assertThat(table.path("kind").asText()).isEqualTo("Table");
    assertThat(table.path("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
    assertThat(table.at("/metadata/resourceVersion").asText()).matches("[0-9]+");
    assertThat(table.at("/metadata/continue").asText()).isNotEmpty();
    assertThat(names(table.path("columnDefinitions"), "name")).startsWith("Name", "Ready", "Status", "Restarts", "Age");
    assertThat(table.path("columnDefinitions").get(0).path("format").asText()).isEqualTo("name");
    assertThat(table.path("rows")).hasSize(2);
    JsonNode row = table.path("rows").get(0);
    assertThat(row.path("cells").get(0).asText()).isEqualTo("a");
    assertThat(row.at("/object/kind").asText()).isEqualTo("PartialObjectMetadata");
    assertThat(row.at("/object/apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
    assertThat(row.at("/object/metadata/namespace").asText()).isEqualTo(ns);
    assertThat(row.at("/object/metadata/labels/app").asText()).isEqualTo("a");
    assertThat(row.path("object").has("spec")).isFalse();

    JsonNode rest = http.get("/api/v1/namespaces/" + ns + "/pods?limit=2&continue="
        + KubeHttp.q(table.at("/metadata/continue").asText()), TABLE_ACCEPT).expect(200);
    assertThat(rest.path("rows")).hasSize(1);
    assertThat(rest.path("metadata").has("continue")).isFalse();
  }

  @Test
  void get_asTable_isOneRow_andIncludeObjectChoosesWhatTheRowCarries() {
    String ns = http.createNamespace("table-get");
    http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("conf"));
    String path = "/api/v1/namespaces/" + ns + "/configmaps/conf";

    JsonNode metadata = http.get(path, TABLE_ACCEPT).expect(200);
    JsonNode object = http.get(path + "?includeObject=Object", TABLE_ACCEPT).expect(200);
    JsonNode none = http.get(path + "?includeObject=None", TABLE_ACCEPT).expect(200);
    JsonNode beta = http.get(path, "application/json;as=Table;v=v1beta1;g=meta.k8s.io").expect(200);

    assertThat(metadata.path("rows")).hasSize(1);
    assertThat(names(metadata.path("columnDefinitions"), "name")).containsExactly("Name", "Data", "Age");
    assertThat(metadata.at("/rows/0/cells/1").asLong()).isEqualTo(1);
    assertThat(metadata.at("/metadata/resourceVersion").asText()).matches("[0-9]+");
    assertThat(object.at("/rows/0/object/kind").asText()).isEqualTo("ConfigMap");
    assertThat(object.at("/rows/0/object/data/k").asText()).isEqualTo("v");
    assertThat(none.at("/rows/0").has("object")).isFalse();
    assertThat(beta.path("apiVersion").asText()).isEqualTo("meta.k8s.io/v1beta1");
    assertThat(beta.at("/rows/0/object/apiVersion").asText()).isEqualTo("meta.k8s.io/v1beta1");
  }

  @Test
  void table_withUnknownIncludeObject_isABadRequest_onGetListAndWatch() {
    String ns = http.createNamespace("table-bad");
    for (String path : List.of("/api/v1/namespaces/" + ns + "/pods?includeObject=All",
        "/api/v1/namespaces/" + ns + "/pods?watch=true&includeObject=All")) {
      JsonNode status = KubeHttp.assertFailureStatus(http.get(path, TABLE_ACCEPT), 400, "BadRequest");
      assertThat(status.path("message").asText()).contains("includeObject").contains("\"All\"");
    }
  }

  @Test
  void plainJsonAccept_orNoAccept_getsTheList_notATable() {
    String ns = http.createNamespace("table-json");
    http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("conf"));

    assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps", "application/json").expect(200)
        .path("kind").asText()).isEqualTo("ConfigMapList");
    assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps", "*/*").expect(200)
        .path("kind").asText()).isEqualTo("ConfigMapList");
    assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps",
        "application/json;q=0.9,application/json;as=Table;v=v1;g=meta.k8s.io").expect(200)
        .path("kind").asText()).as("by quality").isEqualTo("Table");
  }

  @Test
  void watch_asTable_sendsOneRowPerEvent_columnsOnlyFirst_whileJsonWatchersGetObjects() throws Exception {
    String ns = http.createNamespace("table-watch");
    String pods = "/api/v1/namespaces/" + ns + "/pods";
    long rv = http.listResourceVersion(pods);

    try (WatchStream table = http.watchAccepting(pods + "?resourceVersion=" + rv, TABLE_ACCEPT);
        WatchStream json = http.watch(pods + "?resourceVersion=" + rv)) {
      http.create(pods, KubeHttp.pod("one", Map.of(), "node-1"));
      http.create(pods, KubeHttp.pod("two", Map.of(), "node-1"));

      List<JsonNode> events = table.next(2);
      List<JsonNode> plain = json.next(2);

      assertThat(events).extracting(KubeHttp::type).containsExactly("ADDED", "ADDED");
      JsonNode first = events.get(0).path("object");
      JsonNode second = events.get(1).path("object");
      assertThat(first.path("kind").asText()).isEqualTo("Table");
      assertThat(first.path("columnDefinitions")).isNotEmpty();
      assertThat(second.path("columnDefinitions")).as("columns only in the first event").isEmpty();
      assertThat(first.at("/rows/0/cells/0").asText()).isEqualTo("one");
      assertThat(second.at("/rows/0/cells/0").asText()).isEqualTo("two");
      assertThat(second.at("/rows/0/cells/1").asText()).isEqualTo("0/1");
      assertThat(second.at("/metadata/resourceVersion").asText())
          .isEqualTo(plain.get(1).at("/object/metadata/resourceVersion").asText());
      assertThat(plain).extracting(e -> e.path("object").path("kind").asText()).containsExactly("Pod", "Pod");
    }
  }

  private static List<String> names(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }
}

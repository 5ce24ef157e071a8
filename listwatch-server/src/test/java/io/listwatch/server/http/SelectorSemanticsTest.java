package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.names;
import static io.listwatch.server.http.KubeHttp.pod;
import static io.listwatch.server.http.KubeHttp.q;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code labelSelector} and {@code fieldSelector} on LIST and WATCH (docs/compatibility.md, "Selectors"):
 * every label operator, the Pod fields kubectl and schedulers select on, and the 400 for a
 * field the type does not have or a selector that does not parse. How a watch reports an
 * object entering or leaving a selector is in {@link WatchSemanticsTest}.
 */
@ExtendWith(ApiServerExtension.class)
class SelectorSemanticsTest {

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  @Test
  void list_filtersByEveryLabelSelectorOperator() {
    String ns = http.createNamespace("labels");
    http.create(cms(ns), configMap("web-front", Map.of("app", "web", "tier", "front"), Map.of()));
    http.create(cms(ns), configMap("web-back", Map.of("app", "web", "tier", "back"), Map.of()));
    http.create(cms(ns), configMap("db", Map.of("app", "db", "tier", "back"), Map.of()));
    http.create(cms(ns), configMap("plain", Map.of(), Map.of()));
    http.create(cms(ns), configMap("cache", Map.of("app", "cache", "env", "prod"), Map.of()));

    Map<String, List<String>> cases = new LinkedHashMap<>();
    cases.put("app=web", List.of("web-back", "web-front"));
    cases.put("app==web", List.of("web-back", "web-front"));
    cases.put("app!=web", List.of("cache", "db", "plain"));
    cases.put("app in (web,db)", List.of("db", "web-back", "web-front"));
    cases.put("app notin (web,db)", List.of("cache", "plain"));
    cases.put("tier", List.of("db", "web-back", "web-front"));
    cases.put("!tier", List.of("cache", "plain"));
    cases.put("app=web,tier=back", List.of("web-back"));
    cases.put("app in ( web , db ), tier notin (front)", List.of("db", "web-back"));
    cases.put("app,!env", List.of("db", "web-back", "web-front"));
    cases.put("env=prod,app", List.of("cache"));
    cases.put("app=nothing", List.of());
    for (Map.Entry<String, List<String>> c : cases.entrySet()) {
      JsonNode list = http.list(cms(ns) + "?labelSelector=" + q(c.getKey()));
      assertThat(names(list)).as("labelSelector %s", c.getKey()).containsExactlyElementsOf(c.getValue());
    }
  }

  @Test
  void list_filtersPodsByNameNamespaceNodeNameAndPhaseFields() {
    String nsA = http.createNamespace("fields-a");
    String nsB = http.createNamespace("fields-b");
    String scope = "fields-" + nsA;
    Map<String, String> labels = Map.of("scope", scope);
    http.create("/api/v1/namespaces/" + nsA + "/pods", pod("p1", labels, "node-1"));
    http.create("/api/v1/namespaces/" + nsA + "/pods", pod("p2", labels, "node-2"));
    http.create("/api/v1/namespaces/" + nsA + "/pods", pod("p3", labels, null));
    http.create("/api/v1/namespaces/" + nsB + "/pods", pod("p1", labels, "node-1"));
    setPhase(nsA, "p1", "Running");
    setPhase(nsA, "p2", "Pending");
    setPhase(nsA, "p3", "Pending");
    setPhase(nsB, "p1", "Running");

    String a = "/api/v1/namespaces/" + nsA + "/pods?fieldSelector=";
    String all = "/api/v1/pods?labelSelector=" + q("scope=" + scope) + "&fieldSelector=";
    Map<String, List<String>> cases = new LinkedHashMap<>();
    cases.put(a + q("metadata.name=p2"), List.of(nsA + "/p2"));
    cases.put(a + q("metadata.name==p2"), List.of(nsA + "/p2"));
    cases.put(a + q("metadata.name!=p2"), List.of(nsA + "/p1", nsA + "/p3"));
    cases.put(all + q("metadata.name=p1"), List.of(nsA + "/p1", nsB + "/p1"));
    cases.put(all + q("metadata.namespace=" + nsB), List.of(nsB + "/p1"));
    cases.put("/api/v1/pods?fieldSelector=" + q("metadata.namespace=" + nsB), List.of(nsB + "/p1"));
    cases.put(a + q("spec.nodeName=node-1"), List.of(nsA + "/p1"));
    cases.put(a + q("spec.nodeName="), List.of(nsA + "/p3")); // what a scheduler watches
    cases.put(a + q("spec.nodeName!=node-1"), List.of(nsA + "/p2", nsA + "/p3"));
    cases.put(a + q("status.phase=Running"), List.of(nsA + "/p1"));
    cases.put(a + q("status.phase!=Running"), List.of(nsA + "/p2", nsA + "/p3"));
    cases.put(all + q("status.phase=Running,spec.nodeName=node-1"), List.of(nsA + "/p1", nsB + "/p1"));
    cases.put(all + q("status.phase=Running,spec.nodeName=node-2"), List.of());
    for (Map.Entry<String, List<String>> c : cases.entrySet()) {
      JsonNode list = http.list(c.getKey());
      List<String> got = new ArrayList<>();
      list.get("items").forEach(i -> got.add(i.at("/metadata/namespace").asText() + "/" + KubeHttp.name(i)));
      assertThat(got).as("GET %s", c.getKey()).containsExactlyElementsOf(c.getValue());
    }
  }

  private static void setPhase(String ns, String pod, String phase) {
    ObjectNode patch = KubeHttp.JSON.createObjectNode();
    patch.putObject("status").put("phase", phase);
    JsonNode updated = http.mergePatch("/api/v1/namespaces/" + ns + "/pods/" + pod + "/status", patch).expect(200);
    assertThat(updated.at("/status/phase").asText()).isEqualTo(phase);
  }

  @Test
  void listAndWatch_withUnknownSelectorField_areRejectedWith400BadRequest() {
    String ns = http.createNamespace("unknownfield");
    String pods = "/api/v1/namespaces/" + ns + "/pods";
    JsonNode s = assertFailureStatus(http.get(pods + "?fieldSelector=" + q("spec.foo=bar")), 400, "BadRequest");
    assertThat(s.path("message").asText()).contains("spec.foo");
    // spec.nodeName is a Pod field, not a ConfigMap one
    assertFailureStatus(http.get(cms(ns) + "?fieldSelector=" + q("spec.nodeName=n")), 400, "BadRequest");
    assertFailureStatus(http.get("/api/v1/configmaps?fieldSelector=" + q("status.phase=Running")), 400,
        "BadRequest");
    // a watch is refused the same way, before any stream starts
    try (WatchStream w = http.openWatch(pods + "?fieldSelector=" + q("spec.foo=bar"))) {
      assertThat(w.code()).isEqualTo(400);
      assertFailureStatus(new KubeHttp.Response(w.code(), w.headers(), w.readAll()), 400, "BadRequest");
    }
  }

  @Test
  void listAndWatch_withMalformedSelectors_areRejectedWith400BadRequest() {
    String ns = http.createNamespace("badselector");
    for (String bad : List.of("app in (web", "=web", "app notin web", "bad key=x", "app=web=x", "app=a b")) {
      assertFailureStatus(http.get(cms(ns) + "?labelSelector=" + q(bad)), 400, "BadRequest");
    }
    for (String bad : List.of("metadata.name", "metadata.name in (a)")) {
      assertFailureStatus(http.get(cms(ns) + "?fieldSelector=" + q(bad)), 400, "BadRequest");
    }
    try (WatchStream w = http.openWatch(cms(ns) + "?labelSelector=" + q("app in (web"))) {
      assertFailureStatus(new KubeHttp.Response(w.code(), w.headers(), w.readAll()), 400, "BadRequest");
    }
  }
}

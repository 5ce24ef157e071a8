package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Ordinary writes (create, update, patches) record their manager's fields in
 * {@code metadata.managedFields} with operation Update, as kube does, so server-side apply
 * conflicts with them.
 */
@ExtendWith(ApiServerExtension.class)
class ManagedFieldsUpdateTest {

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void close() {
    http.close();
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static KubeHttp.Response apply(String path, String manager, String yaml) {
    return http.send("PATCH", path + "?fieldManager=" + manager, "application/apply-patch+yaml",
        yaml.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * kube keeps one entry per manager and subresource: an apply of the status does not replace
   * the manager's main-resource entry, so its next apply of the main resource still removes
   * the fields it dropped.
   */
  @Test
  void applyToStatus_getsItsOwnEntry_andTheMainResourcesEntryStillPrunes() {
    String ns = http.createNamespace("mf-status");
    String deploy = "/apis/apps/v1/namespaces/" + ns + "/deployments";
    String spec = "spec: {selector: {matchLabels: {app: d}}, template: {metadata: {labels: {app: d}}, "
        + "spec: {containers: [{name: c, image: nginx}]}}}";
    apply(deploy + "/d", "ci", "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d, labels: {tier: web}}, "
        + spec + "}").expect(201);
    JsonNode withStatus = apply(deploy + "/d/status", "ci", "{apiVersion: apps/v1, kind: Deployment, "
        + "metadata: {name: d}, status: {observedGeneration: 1}}").expect(200);

    assertThat(withStatus.at("/metadata/managedFields")).extracting(e -> e.path("manager").asText() + " "
        + e.path("operation").asText() + " " + e.path("subresource").asText(""))
        .contains("ci Apply ", "ci Apply status");

    JsonNode pruned = apply(deploy + "/d", "ci", "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, "
        + spec + "}").expect(200);
    assertThat(pruned.at("/metadata/labels").has("tier")).as("the label the manager dropped is gone").isFalse();
  }

  @Test
  void create_recordsAnUpdateEntry_andApplyConflictsWithIt() {
    String ns = http.createNamespace("mf-create");
    JsonNode created = http.send("POST", cms(ns) + "?fieldManager=alice", "application/json",
        "{\"metadata\":{\"name\":\"cm\"},\"data\":{\"color\":\"red\"}}".getBytes(StandardCharsets.UTF_8))
        .expect(201);

    JsonNode entry = created.at("/metadata/managedFields/0");
    assertThat(entry.path("manager").asText()).isEqualTo("alice");
    assertThat(entry.path("operation").asText()).isEqualTo("Update");
    assertThat(entry.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(entry.at("/fieldsV1/f:data").has("f:color")).isTrue();

    JsonNode conflict = apply(cms(ns) + "/cm", "bob", "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm}, "
        + "data: {color: blue}}").expect(409);
    assertThat(conflict.path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\" using v1: .data.color");
  }

  @Test
  void patchAndUpdate_moveFieldsBetweenManagers_andANoOpUpdateWritesNothing() {
    String ns = http.createNamespace("mf-update");
    http.send("POST", cms(ns) + "?fieldManager=alice", "application/json",
        "{\"metadata\":{\"name\":\"cm\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}".getBytes(StandardCharsets.UTF_8))
        .expect(201);

    JsonNode patched = http.send("PATCH", cms(ns) + "/cm?fieldManager=bob", "application/merge-patch+json",
        "{\"data\":{\"b\":\"3\"}}".getBytes(StandardCharsets.UTF_8)).expect(200);
    assertThat(patched.at("/metadata/managedFields").findValuesAsText("manager")).containsExactly("alice", "bob");
    assertThat(patched.at("/metadata/managedFields/0/fieldsV1/f:data").has("f:b")).isFalse();
    assertThat(patched.at("/metadata/managedFields/1/fieldsV1/f:data").has("f:b")).isTrue();

    JsonNode again = http.send("PUT", cms(ns) + "/cm?fieldManager=carol", "application/json",
        patched.toString().getBytes(StandardCharsets.UTF_8)).expect(200);
    assertThat(KubeHttp.rv(again)).as("an update that changes nothing").isEqualTo(KubeHttp.rv(patched));
    assertThat(again.path("metadata").path("managedFields")).isEqualTo(patched.at("/metadata/managedFields"));
  }

  @Test
  void withoutFieldManager_theManagerIsTheUserAgentsProgram() {
    String ns = http.createNamespace("mf-agent");
    KubeHttp.Response r = http.send(HttpRequest.newBuilder(http.uri(cms(ns)))
        .header("Content-Type", "application/json").header("User-Agent", "my-operator/1.2.3 (linux/amd64)")
        .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"cm\"},\"data\":{\"k\":\"v\"}}")));

    assertThat(r.expect(201).at("/metadata/managedFields/0/manager").asText()).isEqualTo("my-operator");
  }

  @Test
  void anEntryThatIsNotValid_clearsManagedFields_anEmptyListKeepsThem() {
    String ns = http.createNamespace("mf-clear");
    http.send("POST", cms(ns) + "?fieldManager=alice", "application/json",
        "{\"metadata\":{\"name\":\"cm\"},\"data\":{\"k\":\"v\"}}".getBytes(StandardCharsets.UTF_8)).expect(201);

    JsonNode kept = http.mergePatch(cms(ns) + "/cm", object("{\"metadata\":{\"managedFields\":[]}}")).expect(200);
    assertThat(kept.at("/metadata/managedFields").size()).isEqualTo(1);

    JsonNode cleared = http.mergePatch(cms(ns) + "/cm", object("{\"metadata\":{\"managedFields\":[{}]}}")).expect(200);
    assertThat(cleared.at("/metadata/managedFields").isMissingNode()).isTrue();
  }
}

package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.server.webhook.HostPortConversionWebhook;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A CustomResourceDefinition with conversion strategy Webhook over HTTP, against a real HTTPS
 * conversion webhook (kube's docs' example): v1 has {@code spec.hostPort: "host:port"}, v2 has
 * {@code spec.host} and {@code spec.port}. Objects round-trip through get, list, watch and
 * writes in either version, the storage version can change, and a webhook that fails gives
 * kube's errors.
 */
@ExtendWith(ApiServerExtension.class)
class CustomResourceConversionWebhookTest {

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static KubeHttp http;

  private final HostPortConversionWebhook hook = new HostPortConversionWebhook();

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  @AfterEach
  void stopWebhook() {
    hook.close();
  }

  private ObjectNode definition(String group) {
    return object(hook.definition(group));
  }

  private static String gateways(String group, String version, String ns) {
    return "/apis/" + group + "/" + version + "/namespaces/" + ns + "/gateways";
  }

  private static ObjectNode v1(String group, String name, String hostPort) {
    return object("""
        {"apiVersion":"%s/v1","kind":"Gateway","metadata":{"name":"%s"},"spec":{"hostPort":"%s"}}"""
        .formatted(group, name, hostPort));
  }

  @Test
  void objectsRoundTrip_throughGetListWatchAndWrites_inBothVersions() {
    String group = "conv.example.com";
    http.create(CRDS, definition(group));
    http.awaitEstablished("gateways." + group);
    String ns = http.createNamespace("conv");

    try (WatchStream v2Watch = http.watch(gateways(group, "v2", ns))) {
      http.create(gateways(group, "v1", ns), v1(group, "a", "localhost:1234"));

      JsonNode a = http.get(gateways(group, "v2", ns) + "/a").expect(200);
      assertThat(a.path("apiVersion").asText()).isEqualTo(group + "/v2");
      assertThat(a.path("spec")).isEqualTo(object("{\"host\":\"localhost\",\"port\":\"1234\"}"));
      assertThat(a.path("metadata").path("name").asText()).isEqualTo("a");
      assertThat(http.get(gateways(group, "v1", ns) + "/a").expect(200).path("spec").path("hostPort").asText())
          .isEqualTo("localhost:1234");

      JsonNode event = v2Watch.next();
      assertThat(event.path("type").asText()).isEqualTo("ADDED");
      assertThat(event.path("object").path("spec").path("host").asText()).as("the watch sees v2").isEqualTo("localhost");

      // a write through v2 is stored in v1 and answered in v2
      JsonNode patched = http.mergePatch(gateways(group, "v2", ns) + "/a", object("{\"spec\":{\"port\":\"9999\"}}"))
          .expect(200);
      assertThat(patched.path("apiVersion").asText()).isEqualTo(group + "/v2");
      assertThat(patched.path("spec").path("port").asText()).isEqualTo("9999");
      assertThat(http.get(gateways(group, "v1", ns) + "/a").expect(200).path("spec").path("hostPort").asText())
          .isEqualTo("localhost:9999");
      JsonNode modified = v2Watch.next();
      assertThat(modified.path("type").asText()).isEqualTo("MODIFIED");
      assertThat(modified.path("object").path("spec").path("port").asText()).isEqualTo("9999");

      http.create(gateways(group, "v2", ns), object("""
          {"apiVersion":"%s/v2","kind":"Gateway","metadata":{"name":"b"},"spec":{"host":"example.org","port":"80"}}"""
          .formatted(group)));
      List<String> v1HostPorts = new ArrayList<>();
      http.list(gateways(group, "v1", ns)).path("items").forEach(i -> v1HostPorts.add(i.path("spec").path("hostPort").asText()));
      assertThat(v1HostPorts).containsExactly("localhost:9999", "example.org:80");
      List<String> v2Hosts = new ArrayList<>();
      JsonNode v2List = http.list(gateways(group, "v2", ns));
      v2List.path("items").forEach(i -> v2Hosts.add(i.path("apiVersion").asText() + " " + i.path("spec").path("host").asText()));
      assertThat(v2Hosts).containsExactly(group + "/v2 localhost", group + "/v2 example.org");
    }

    // the storage version moves to v2: objects written from now on are stored in v2, read in both
    ObjectNode crd = (ObjectNode) http.get(CRDS + "/gateways." + group).expect(200);
    ArrayNode versions = (ArrayNode) crd.path("spec").path("versions");
    ((ObjectNode) versions.get(0)).put("storage", false);
    ((ObjectNode) versions.get(1)).put("storage", true);
    http.put(CRDS + "/gateways." + group, crd).expect(200);
    Await.until("v2 stored", Duration.ofSeconds(15), () -> http.get(CRDS + "/gateways." + group).expect(200)
        .path("status").path("storedVersions").toString().equals("[\"v1\",\"v2\"]"));
    http.create(gateways(group, "v1", ns), v1(group, "c", "host-c:7"));
    assertThat(http.get(gateways(group, "v2", ns) + "/c").expect(200).path("spec"))
        .isEqualTo(object("{\"host\":\"host-c\",\"port\":\"7\"}"));
    assertThat(http.get(gateways(group, "v1", ns) + "/c").expect(200).path("spec").path("hostPort").asText())
        .isEqualTo("host-c:7");
    assertThat(http.get(gateways(group, "v1", ns) + "/a").expect(200).path("spec").path("hostPort").asText())
        .as("an object stored in v1 before the switch still reads").isEqualTo("localhost:9999");
  }

  @Test
  void aWebhookThatCannotBeReached_failsReadsAndWritesWithKubesError() {
    String group = "down.example.com";
    http.create(CRDS, definition(group));
    http.awaitEstablished("gateways." + group);
    String ns = http.createNamespace("down");
    http.create(gateways(group, "v1", ns), v1(group, "a", "localhost:1"));
    int port = hook.port();
    WatchStream v2Watch = http.watch(gateways(group, "v2", ns));
    assertThat(v2Watch.next().path("type").asText()).isEqualTo("ADDED");
    hook.close();

    // an event the v2 watch cannot be sent ends it with an ERROR event
    http.create(gateways(group, "v1", ns), v1(group, "c", "localhost:2"));
    JsonNode error = v2Watch.next();
    assertThat(error.path("type").asText()).isEqualTo("ERROR");
    assertThat(error.path("object").path("code").asInt()).isEqualTo(500);
    assertThat(error.path("object").path("message").asText())
        .startsWith("conversion webhook for " + group + "/v1, Kind=Gateway failed: Post ");
    assertThat(v2Watch.awaitEnd(Duration.ofSeconds(10), new ArrayList<>()).clean()).isTrue();
    v2Watch.close();

    KubeHttp.Response get = http.get(gateways(group, "v2", ns) + "/a");
    assertThat(get.code()).isEqualTo(500);
    JsonNode status = object(get.body());
    assertThat(status.path("reason").isMissingNode()).as("kube's error without a reason").isTrue();
    assertThat(status.path("message").asText()).startsWith("conversion webhook for " + group
        + "/v1, Kind=Gateway failed: Post \"https://127.0.0.1:" + port + "/convert?timeout=30s\": ");

    KubeHttp.Response create = http.post(gateways(group, "v2", ns), object("""
        {"apiVersion":"%s/v2","kind":"Gateway","metadata":{"name":"b"},"spec":{"host":"h","port":"1"}}""".formatted(group)));
    assertThat(create.code()).isEqualTo(500);
    assertThat(object(create.body()).path("message").asText())
        .startsWith("conversion webhook for " + group + "/v2, Kind=Gateway failed: Post ");
    assertThat(http.get(gateways(group, "v1", ns) + "/b").code()).as("nothing stored").isEqualTo(404);
    assertThat(http.get(gateways(group, "v1", ns) + "/a").expect(200).path("spec").path("hostPort").asText())
        .as("the storage version needs no webhook").isEqualTo("localhost:1");
  }

  @Test
  void aWebhookAnsweringWrongly_failsTheReadWithKubesError() {
    hook.answering("/wrong-uid", body -> hook.convert(body).replaceFirst("\"uid\":\"[^\"]*\"", "\"uid\":\"other\""))
        .answering("/renamed", body -> hook.convert(body).replace("\"name\":\"a\"", "\"name\":\"b\""))
        .answering("/refused", body -> hook.convert(body)
            .replace("{\"status\":\"Success\"}", "{\"status\":\"Failure\",\"message\":\"no conversions today\"}"))
        .answering("/v1beta1", body -> hook.convert(body).replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"));
    String ns = http.createNamespace("wrong");
    java.util.Map<String, String> expected = java.util.Map.of(
        "/wrong-uid", "failed: expected response.uid=",
        "/renamed", "returned invalid object: must have the same name: a != b",
        "/refused", "failed: no conversions today",
        "/v1beta1", "failed: expected webhook response of apiextensions.k8s.io/v1, "
            + "Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview");
    expected.forEach((path, message) -> {
      String group = path.substring(1) + ".example.com";
      http.create(CRDS, object(hook.definition(group, path)));
      http.awaitEstablished("gateways." + group);
      http.create(gateways(group, "v1", ns), v1(group, "a", "localhost:1"));

      KubeHttp.Response get = http.get(gateways(group, "v2", ns) + "/a");
      assertThat(get.code()).as(path).isEqualTo(500);
      assertThat(object(get.body()).path("message").asText()).as(path)
          .startsWith("conversion webhook for " + group + "/v1, Kind=Gateway " + message);
    });
  }
}

package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /openapi/v2}, {@code /openapi/v3} and field validation over the wire, as kubectl and
 * client-go see them.
 */
@ExtendWith(ApiServerExtension.class)
class OpenApiEndpointsTest {

  private static KubeHttp http;
  private static String base;

  @BeforeAll
  static void setUp(ApiServer server) {
    http = new KubeHttp(server);
    base = server.url();
  }

  @AfterAll
  static void tearDown() {
    http.close();
  }

  @Test
  void v3Index_linksEveryGroupVersion_byHash() {
    JsonNode index = http.get("/openapi/v3").expect(200);

    assertThat(index.path("paths").has("api/v1")).isTrue();
    assertThat(index.path("paths").has("apis/apps/v1")).isTrue();
    assertThat(index.path("paths").has("apis/rbac.authorization.k8s.io/v1")).isTrue();
    assertThat(index.path("paths").path("apis/apps/v1").path("serverRelativeURL").asText())
        .matches("/openapi/v3/apis/apps/v1\\?hash=[0-9A-F]{128}");
  }

  @Test
  void v3GroupVersion_hasPatchOperationsWithGvkAndFieldValidation_andTaggedDefinitions() {
    String url = http.get("/openapi/v3").expect(200).path("paths").path("apis/apps/v1").path("serverRelativeURL").asText();
    JsonNode doc = http.get(url).expect(200);

    JsonNode patch = doc.path("paths").path("/apis/apps/v1/namespaces/{namespace}/deployments/{name}").path("patch");
    assertThat(patch.path("x-kubernetes-action").asText()).isEqualTo("patch");
    assertThat(patch.path("x-kubernetes-group-version-kind").toString())
        .isEqualTo("{\"group\":\"apps\",\"kind\":\"Deployment\",\"version\":\"v1\"}");
    assertThat(patch.path("parameters").findValuesAsText("name")).contains("fieldValidation", "dryRun", "fieldManager");
    assertThat(patch.path("requestBody").path("content").has("application/merge-patch+json")).isTrue();
    JsonNode post = doc.path("paths").path("/apis/apps/v1/namespaces/{namespace}/deployments").path("post");
    assertThat(post.path("parameters").findValuesAsText("name")).contains("fieldValidation");
    assertThat(post.path("x-kubernetes-action").asText()).isEqualTo("post");
    JsonNode deployment = doc.path("components").path("schemas").path("io.k8s.api.apps.v1.Deployment");
    assertThat(deployment.path("x-kubernetes-group-version-kind").get(0).path("kind").asText()).isEqualTo("Deployment");
    assertThat(doc.path("components").path("schemas").has("io.k8s.api.core.v1.PodSpec")).isTrue();
    assertThat(doc.path("paths").path("/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status").has("patch"))
        .isTrue();
  }

  @Test
  void documents_haveAnETag_andIfNoneMatchGets304() throws Exception {
    KubeHttp.Response first = http.get("/openapi/v3/api/v1");
    String etag = first.headers().firstValue("ETag").orElseThrow();
    KubeHttp.Response again = http.get("/openapi/v3/api/v1");

    HttpResponse<String> cached;
    try (HttpClient client = HttpClient.newHttpClient()) {
      cached = client.send(HttpRequest.newBuilder(URI.create(base + "/openapi/v3/api/v1"))
          .header("If-None-Match", etag).GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    assertThat(etag).matches("\"[0-9A-F]{128}\"");
    assertThat(again.headers().firstValue("ETag")).contains(etag);
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(http.get("/openapi/v3").json().path("paths").path("api/v1").path("serverRelativeURL").asText())
        .endsWith("?hash=" + etag.substring(1, etag.length() - 1));
    assertThat(cached.statusCode()).isEqualTo(304);
    assertThat(cached.body()).isEmpty();
    assertThat(first.headers().allValues("Cache-Control")).containsExactly("no-cache, private");
    assertThat(http.get("/openapi/v3/api/v1?hash=" + etag.substring(1, etag.length() - 1)).headers()
        .allValues("Cache-Control")).containsExactly("public, immutable");
  }

  @Test
  void v2_isSwaggerJson_orGnosticProtobufWhenAskedFirst_and406WhenNeither() {
    JsonNode v2 = http.get("/openapi/v2", "application/json").expect(200);
    KubeHttp.Response protobuf = http.get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
    KubeHttp.Response either = http.get("/openapi/v2",
        "application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json");
    KubeHttp.Response neither = http.get("/openapi/v2", "text/html");

    assertThat(v2.path("swagger").asText()).isEqualTo("2.0");
    assertThat(v2.path("definitions").path("io.k8s.api.core.v1.Pod").path("properties").has("spec")).isTrue();
    assertThat(v2.path("paths").path("/api/v1/namespaces/{namespace}/pods/{name}").path("patch")
        .path("parameters").findValuesAsText("name")).contains("fieldValidation");
    // kube's Content-Type for it: the media type with '.' for the '@' Go's parser rejects
    assertThat(protobuf.code()).isEqualTo(200);
    assertThat(protobuf.contentType()).isEqualTo("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    assertThat(protobuf.headers().firstValue("ETag")).isPresent();
    assertThat(either.contentType()).isEqualTo(protobuf.contentType());
    assertThat(http.send(HttpRequest.newBuilder(http.uri("/openapi/v2"))
        .header("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
        .header("If-None-Match", protobuf.headers().firstValue("ETag").orElseThrow()).GET()).code()).isEqualTo(304);
    assertThat(neither.code()).isEqualTo(406);
    assertThat(neither.json().path("reason").asText()).isEqualTo("NotAcceptable");
    assertThat(http.get("/openapi/v3/apis/example.com/v1").code()).isEqualTo(404);
  }

  @Test
  void thousandsOfUnknownFields_giveAbout4KiBOfWarnings_asKubeBoundsThem() throws Exception {
    String ns = http.createNamespace("openapi-many");
    ObjectNode cm = KubeHttp.configMap("many");
    for (int i = 0; i < 3_500; i++) {
      cm.put("unknown" + i, i);
    }

    KubeHttp.Response r = http.post("/api/v1/namespaces/" + ns + "/configmaps", cm);

    r.expect(201);
    java.util.List<String> warnings = r.headers().allValues("Warning");
    assertThat(warnings).hasSizeBetween(100, 200).first().isEqualTo("299 - \"unknown field \\\"unknown0\\\"\"");
    assertThat(warnings.stream().mapToInt(String::length).sum()).isLessThan(8 * 1024);
  }

  @Test
  void create_withoutFieldValidation_warnsAboutUnknownFields_andStoresThePrunedObject() throws Exception {
    String ns = http.createNamespace("openapi-warn");
    ObjectNode cm = KubeHttp.configMap("warned");
    cm.put("colour", "red");

    KubeHttp.Response r = http.post("/api/v1/namespaces/" + ns + "/configmaps", cm);

    r.expect(201);
    assertThat(r.headers().allValues("Warning")).containsExactly("299 - \"unknown field \\\"colour\\\"\"");
    assertThat(r.json().has("colour")).isFalse();
    assertThat(http.get("/api/v1/namespaces/" + ns + "/configmaps/warned").expect(200).has("colour")).isFalse();
  }

  @Test
  void strictAndIgnore_overTheWire() {
    String ns = http.createNamespace("openapi-strict");
    ObjectNode cm = KubeHttp.configMap("strict");
    cm.put("colour", "red");
    String path = "/api/v1/namespaces/" + ns + "/configmaps";

    KubeHttp.Response strict = http.post(path + "?fieldValidation=Strict", cm);
    KubeHttp.Response bad = http.post(path + "?fieldValidation=Loose", cm);
    KubeHttp.Response ignored = http.post(path + "?fieldValidation=Ignore", cm);

    assertThat(strict.expect(400).path("message").asText()).isEqualTo(
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: unknown field \"colour\"");
    assertThat(bad.expect(422).path("message").asText()).startsWith("CreateOptions.meta.k8s.io \"\" is invalid: "
        + "fieldValidation: Unsupported value: \"Loose\"");
    ignored.expect(201);
    assertThat(ignored.headers().allValues("Warning")).isEmpty();
    List<String> names = new ArrayList<>();
    http.get(path).expect(200).path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    assertThat(names).containsExactly("strict");
  }
}

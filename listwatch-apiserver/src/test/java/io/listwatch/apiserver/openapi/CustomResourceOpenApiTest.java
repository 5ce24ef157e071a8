package io.listwatch.apiserver.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.apiserver.apiextensions.CustomResources;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The OpenAPI documents of a server serving a custom resource version beside a built-in kind. */
class CustomResourceOpenApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ProtoSchemas SCHEMAS = ProtoSchemas.builtins(PatchMetadata.builtins());

  private static ResourceDefinition widgets() throws Exception {
    JsonNode spec = JSON.readTree("""
        {"group":"views.example.com","scope":"Namespaced",
         "names":{"plural":"widgets","kind":"Widget","listKind":"WidgetList","singular":"widget"},
         "versions":[{"name":"v1","served":true,"storage":true,
           "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas",
             "statusReplicasPath":".status.replicas"}},
           "schema":{"openAPIV3Schema":{"type":"object","description":"A widget.","properties":{
             "spec":{"type":"object","properties":{
               "color":{"type":"string","nullable":true,"description":"Its colour."},
               "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}}}}}]}
        """);
    return CustomResources.definition(spec, spec.path("versions").get(0));
  }

  private static OpenApiDocuments documents() throws Exception {
    ResourceDefinition configMaps = ResourceDefinition.builder("", "v1", "ConfigMap", "configmaps").build();
    return OpenApiDocuments.build(List.of(configMaps, widgets()), SCHEMAS);
  }

  private static JsonNode tree(OpenApiDocuments.Document d) throws Exception {
    return JSON.readTree(d.bytes());
  }

  @Test
  void v3_hasTheGroupVersionDocument_withTheKindUnderKubesName() throws Exception {
    OpenApiDocuments docs = documents();

    assertThat(tree(docs.v3Index()).path("paths").has("apis/views.example.com/v1")).isTrue();
    JsonNode doc = tree(docs.v3("apis/views.example.com/v1").orElseThrow());
    JsonNode schemas = doc.path("components").path("schemas");
    JsonNode widget = schemas.path("com.example.views.v1.Widget");
    assertThat(widget.path("description").asText()).isEqualTo("A widget.");
    assertThat(widget.path("x-kubernetes-group-version-kind").get(0).toString())
        .isEqualTo("{\"group\":\"views.example.com\",\"kind\":\"Widget\",\"version\":\"v1\"}");
    assertThat(widget.at("/properties/metadata/allOf/0/$ref").asText())
        .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assertThat(widget.at("/properties/spec/properties/color/nullable").asBoolean()).isTrue();
    assertThat(schemas.has("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")).isTrue();
    assertThat(schemas.has("io.k8s.apimachinery.pkg.apis.meta.v1.Status")).as("deletecollection answers it").isTrue();
    assertThat(schemas.path("com.example.views.v1.WidgetList").at("/properties/items/items/$ref").asText())
        .isEqualTo("#/components/schemas/com.example.views.v1.Widget");
    assertThat(doc.path("paths").has("/apis/views.example.com/v1/namespaces/{namespace}/widgets/{name}/scale"))
        .isTrue();
    assertThat(doc.path("paths").has("/apis/views.example.com/v1/namespaces/{namespace}/widgets/{name}/status"))
        .isTrue();
  }

  @Test
  void patchOfACustomResource_listsNoStrategicMerge() throws Exception {
    JsonNode doc = tree(documents().v3("apis/views.example.com/v1").orElseThrow());

    JsonNode content = doc.path("paths").path("/apis/views.example.com/v1/namespaces/{namespace}/widgets/{name}")
        .path("patch").path("requestBody").path("content");
    assertThat(JSON.convertValue(content, java.util.Map.class).keySet()).containsExactly(
        "application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml");
  }

  @Test
  void v2_hasTheKind_withoutWhatSwagger2CannotSay_andConvertsToProtobuf() throws Exception {
    OpenApiDocuments docs = documents();

    JsonNode widget = tree(docs.v2()).path("definitions").path("com.example.views.v1.Widget");
    assertThat(widget.at("/properties/metadata/$ref").asText())
        .isEqualTo("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    JsonNode color = widget.at("/properties/spec/properties/color");
    assertThat(color.has("nullable")).isFalse();
    assertThat(color.has("type")).as("a nullable field loses its type, so null passes").isFalse();
    JsonNode port = widget.at("/properties/spec/properties/port");
    assertThat(port.has("anyOf")).isFalse();
    assertThat(port.path("x-kubernetes-int-or-string").asBoolean()).isTrue();
    assertThat(new String(docs.v2Protobuf().bytes(), StandardCharsets.ISO_8859_1))
        .contains("com.example.views.v1.Widget");
    assertThat(tree(docs.v2()).path("definitions").has("io.k8s.api.core.v1.ConfigMap")).isTrue();
  }
}

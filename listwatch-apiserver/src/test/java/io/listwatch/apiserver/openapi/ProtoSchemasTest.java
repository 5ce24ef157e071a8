package io.listwatch.apiserver.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.openapi.ProtoSchemas.Dialect;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProtoSchemasTest {

  private static final ProtoSchemas SCHEMAS = ProtoSchemas.builtins(PatchMetadata.NONE);
  private static final String CORE = "io.k8s.api.core.v1.";
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

  private static JsonNode property(String definition, String field) {
    return SCHEMAS.schema(definition, Dialect.OPENAPI_3).path("properties").path(field);
  }

  @Test
  void pod_hasTypeMetaMetadataSpecAndStatus_byKubesDefinitionNames() {
    ObjectNode pod = SCHEMAS.schema(CORE + "Pod", Dialect.OPENAPI_3);

    assertThat(pod.path("type").asText()).isEqualTo("object");
    assertThat(pod.path("properties").properties()).extracting(Map.Entry::getKey)
        .containsExactly("apiVersion", "kind", "metadata", "spec", "status");
    assertThat(property(CORE + "Pod", "metadata").path("$ref").asText())
        .isEqualTo("#/components/schemas/" + META + "ObjectMeta");
    assertThat(SCHEMAS.definitionFor("", "v1", "Pod")).contains(CORE + "Pod");
    assertThat(SCHEMAS.definitionFor("apps", "v1", "Deployment")).contains("io.k8s.api.apps.v1.Deployment");
    assertThat(SCHEMAS.definitionFor("rbac.authorization.k8s.io", "v1", "Role"))
        .contains("io.k8s.api.rbac.v1.Role");
    assertThat(SCHEMAS.definitionFor("example.com", "v1", "Widget")).isEqualTo(Optional.empty());
  }

  @Test
  void podSpecContainers_isAnArrayOfContainer_withImageNameAndPorts() {
    JsonNode containers = property(CORE + "PodSpec", "containers");

    assertThat(containers.path("type").asText()).isEqualTo("array");
    assertThat(containers.path("items").path("$ref").asText()).endsWith(CORE + "Container");
    assertThat(property(CORE + "Container", "image").path("type").asText()).isEqualTo("string");
    assertThat(property(CORE + "Container", "ports").path("items").path("$ref").asText()).endsWith("ContainerPort");
    assertThat(property(CORE + "ContainerPort", "containerPort").path("format").asText()).isEqualTo("int32");
  }

  @Test
  void requiredFields_areListed_asKubesOpenApiListsThem() {
    assertThat(SCHEMAS.schema(CORE + "PodSpec", Dialect.OPENAPI_3).path("required")).extracting(JsonNode::asText)
        .containsExactly("containers");
    assertThat(SCHEMAS.schema(CORE + "ContainerPort", Dialect.OPENAPI_3).path("required"))
        .extracting(JsonNode::asText).containsExactly("containerPort");
    assertThat(SCHEMAS.schema(CORE + "Pod", Dialect.OPENAPI_3).has("required")).isFalse();
  }

  @Test
  void protoNamesThatAreNotJsonNames_areServedByTheirJsonNames() {
    // kube's proto names these after the Go field (uID, aPIGroup); JSON says uid and apiGroup
    String bound = "io.k8s.api.authentication.v1.BoundObjectReference";
    String parameters = "io.k8s.api.networking.v1.IngressClassParametersReference";

    assertThat(SCHEMAS.schema(bound, Dialect.OPENAPI_3).path("properties").has("uid")).isTrue();
    assertThat(SCHEMAS.schema(bound, Dialect.OPENAPI_3).path("properties").has("uID")).isFalse();
    assertThat(SCHEMAS.schema(parameters, Dialect.SWAGGER_2).path("properties").has("apiGroup")).isTrue();
    assertThat(SCHEMAS.schema(parameters, Dialect.SWAGGER_2).path("properties").has("aPIGroup")).isFalse();
  }

  @Test
  void goInlineEmbeds_putTheirFieldsInTheParent() {
    ObjectNode volume = SCHEMAS.schema(CORE + "Volume", Dialect.OPENAPI_3);
    ObjectNode probe = SCHEMAS.schema(CORE + "Probe", Dialect.OPENAPI_3);
    ObjectNode keySelector = SCHEMAS.schema(CORE + "ConfigMapKeySelector", Dialect.OPENAPI_3);

    assertThat(volume.path("properties").has("configMap")).isTrue();
    assertThat(volume.path("properties").has("emptyDir")).isTrue();
    assertThat(volume.path("properties").has("volumeSource")).isFalse();
    assertThat(probe.path("properties").has("httpGet")).isTrue();
    assertThat(probe.path("properties").has("handler")).isFalse();
    assertThat(keySelector.path("properties").properties()).extracting(Map.Entry::getKey)
        .containsExactly("key", "name", "optional");
    assertThat(SCHEMAS.schema("io.k8s.api.networking.v1.IngressRule", Dialect.OPENAPI_3).path("properties")
        .properties()).extracting(Map.Entry::getKey).containsExactly("host", "http");
    assertThat(SCHEMAS.schema(CORE + "EphemeralContainer", Dialect.OPENAPI_3).path("properties").has("image")).isTrue();
  }

  @Test
  void configMap_dataIsAStringMap_andBinaryDataBase64() {
    JsonNode data = property(CORE + "ConfigMap", "data");
    JsonNode binary = property(CORE + "ConfigMap", "binaryData");

    assertThat(data.path("type").asText()).isEqualTo("object");
    assertThat(data.path("additionalProperties").path("type").asText()).isEqualTo("string");
    assertThat(binary.path("additionalProperties").path("format").asText()).isEqualTo("byte");
    assertThat(property(CORE + "ConfigMap", "immutable").path("type").asText()).isEqualTo("boolean");
  }

  @Test
  void kubesSpecialTypes_haveTheirJsonForms() {
    assertThat(SCHEMAS.schema(META + "Time", Dialect.OPENAPI_3).toString())
        .isEqualTo("{\"type\":\"string\",\"format\":\"date-time\"}");
    ObjectNode intOrString = SCHEMAS.schema("io.k8s.apimachinery.pkg.util.intstr.IntOrString", Dialect.OPENAPI_3);
    assertThat(intOrString.path("format").asText()).isEqualTo("int-or-string");
    assertThat(intOrString.path("x-kubernetes-int-or-string").asBoolean()).isTrue();
    assertThat(SCHEMAS.schema("io.k8s.apimachinery.pkg.util.intstr.IntOrString", Dialect.SWAGGER_2).toString())
        .isEqualTo("{\"type\":\"string\",\"format\":\"int-or-string\"}");
    ObjectNode quantity = SCHEMAS.schema("io.k8s.apimachinery.pkg.api.resource.Quantity", Dialect.OPENAPI_3);
    assertThat(quantity.path("oneOf").findValuesAsText("type")).containsExactly("string", "number");
    assertThat(SCHEMAS.schema("io.k8s.apimachinery.pkg.runtime.RawExtension", Dialect.OPENAPI_3).toString())
        .isEqualTo("{\"type\":\"object\"}");
    assertThat(SCHEMAS.schema(META + "Duration", Dialect.OPENAPI_3).path("type").asText()).isEqualTo("string");
    assertThat(property("io.k8s.api.authentication.v1.UserInfo", "extra").path("additionalProperties")
        .path("$ref").asText()).endsWith("ExtraValue");
    assertThat(SCHEMAS.schema("io.k8s.api.authentication.v1.ExtraValue", Dialect.OPENAPI_3).path("type").asText())
        .isEqualTo("array");
  }

  @Test
  void deployment_strategyReachesIntOrString_andTemplatesHaveNoTypeMeta() {
    Map<String, ObjectNode> closure = SCHEMAS.closure(List.of("io.k8s.api.apps.v1.Deployment"), Dialect.SWAGGER_2);

    assertThat(closure).containsKeys("io.k8s.api.apps.v1.DeploymentSpec", "io.k8s.api.apps.v1.RollingUpdateDeployment",
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString", CORE + "PodTemplateSpec", CORE + "Container",
        META + "ObjectMeta", META + "Time");
    assertThat(closure.get("io.k8s.api.apps.v1.RollingUpdateDeployment").path("properties").path("maxSurge")
        .path("$ref").asText()).isEqualTo("#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString");
    assertThat(closure.get(CORE + "PodTemplateSpec").path("properties").has("kind")).isFalse();
    assertThat(closure.get("io.k8s.api.apps.v1.Deployment").path("properties").has("kind")).isTrue();
  }

  @Test
  void patchMetadata_isWrittenAsKubesExtensions() {
    PatchMetadata containersByName = (definition, field) -> definition.equals(CORE + "PodSpec")
        && field.equals("containers")
        ? Optional.of(new PatchMetadata.FieldPatch("merge", "name", "map", List.of("name")))
        : Optional.empty();
    ProtoSchemas withPatches = ProtoSchemas.builtins(containersByName);

    JsonNode containers = withPatches.schema(CORE + "PodSpec", Dialect.OPENAPI_3).path("properties").path("containers");

    assertThat(containers.path("x-kubernetes-patch-strategy").asText()).isEqualTo("merge");
    assertThat(containers.path("x-kubernetes-patch-merge-key").asText()).isEqualTo("name");
    assertThat(containers.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(containers.path("x-kubernetes-list-map-keys").get(0).asText()).isEqualTo("name");
    assertThat(property(CORE + "PodSpec", "containers").has("x-kubernetes-patch-merge-key")).isFalse();
  }
}

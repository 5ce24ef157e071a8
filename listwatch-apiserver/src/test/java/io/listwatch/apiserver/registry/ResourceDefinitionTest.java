package io.listwatch.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceDefinitionTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode json(String s) {
    try {
      return MAPPER.readTree(s);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static ResourceDefinition widgets() {
    return ResourceDefinition.builder("example.com", "v1beta1", "Widget", "widgets").build();
  }

  @Test
  void builder_appliesDefaults() {
    ResourceDefinition def = widgets();
    assertThat(def.group()).isEqualTo("example.com");
    assertThat(def.version()).isEqualTo("v1beta1");
    assertThat(def.kind()).isEqualTo("Widget");
    assertThat(def.listKind()).isEqualTo("WidgetList");
    assertThat(def.plural()).isEqualTo("widgets");
    assertThat(def.singular()).isEqualTo("widget");
    assertThat(def.shortNames()).isEmpty();
    assertThat(def.categories()).isEmpty();
    assertThat(def.namespaced()).isTrue();
    assertThat(def.hasStatus()).isFalse();
    assertThat(def.tracksGeneration()).isFalse();
    assertThat(def.returnsDeletedObject()).isFalse();
    assertThat(def.verbs()).isEqualTo(ResourceDefinition.ALL_VERBS);
    assertThat(def.nameValidation()).isEqualTo(NameValidation.DNS1123_SUBDOMAIN);
    assertThat(def.selectableFields()).isEmpty();
  }

  @Test
  void builder_overridesEverySetting() {
    ResourceDefinition def = ResourceDefinition.builder("", "v1", "Endpoints", "endpoints")
        .listKind("EndpointsList")
        .singular("endpoints")
        .shortNames("ep")
        .categories("all", "extra")
        .clusterScoped()
        .hasStatus()
        .tracksGeneration()
        .returnsDeletedObject()
        .verbs("watch", "get", "list")
        .nameValidation(NameValidation.DNS1035_LABEL)
        .selectableField("spec.x", FieldExtractor.string("spec.x"))
        .build();
    assertThat(def.listKind()).isEqualTo("EndpointsList");
    assertThat(def.singular()).isEqualTo("endpoints");
    assertThat(def.shortNames()).containsExactly("ep");
    assertThat(def.categories()).containsExactly("all", "extra");
    assertThat(def.namespaced()).isFalse();
    assertThat(def.hasStatus()).isTrue();
    assertThat(def.tracksGeneration()).isTrue();
    assertThat(def.returnsDeletedObject()).isTrue();
    assertThat(def.verbs()).as("sorted as discovery lists them").containsExactly("get", "list", "watch");
    assertThat(def.nameValidation()).isEqualTo(NameValidation.DNS1035_LABEL);
    assertThat(def.selectableFields()).containsOnlyKeys("spec.x");
  }

  @Test
  void apiVersion_isVersionForCore_andGroupSlashVersionOtherwise() {
    assertThat(ResourceDefinition.builder("", "v1", "Pod", "pods").build().apiVersion()).isEqualTo("v1");
    assertThat(ResourceDefinition.builder("apps", "v1", "Deployment", "deployments").build().apiVersion())
        .isEqualTo("apps/v1");
    assertThat(widgets().groupVersion()).isEqualTo("example.com/v1beta1");
  }

  @Test
  void storagePrefix_namesCoreGroupCore_andOmitsVersion() {
    assertThat(ResourceDefinition.builder("", "v1", "Pod", "pods").build().storagePrefix())
        .isEqualTo("/registry/core/pods/");
    assertThat(ResourceDefinition.builder("apps", "v1", "Deployment", "deployments").build().storagePrefix())
        .isEqualTo("/registry/apps/deployments/");
    assertThat(ResourceDefinition.builder("apps", "v2", "Deployment", "deployments").build().storagePrefix())
        .as("every version shares one location").isEqualTo("/registry/apps/deployments/");
  }

  @Test
  void storageKey_namespaced_isPrefixNamespaceSlashName() {
    ResourceDefinition pods = ResourceDefinition.builder("", "v1", "Pod", "pods").build();
    assertThat(pods.storageKey("default", "web")).isEqualTo("/registry/core/pods/default/web");
    assertThat(pods.storagePrefix("default")).isEqualTo("/registry/core/pods/default/");
    assertThat(pods.storageKey("default", "web")).startsWith(pods.storagePrefix("default"));
  }

  @Test
  void storageKey_clusterScoped_isPrefixName_acceptingNullOrEmptyNamespace() {
    ResourceDefinition nodes = ResourceDefinition.builder("", "v1", "Node", "nodes").clusterScoped().build();
    assertThat(nodes.storageKey(null, "n1")).isEqualTo("/registry/core/nodes/n1");
    assertThat(nodes.storageKey("", "n1")).isEqualTo("/registry/core/nodes/n1");
  }

  @Test
  void storageKey_rejectsNamespaceOnClusterScoped_andMissingNamespaceOnNamespaced() {
    ResourceDefinition nodes = ResourceDefinition.builder("", "v1", "Node", "nodes").clusterScoped().build();
    ResourceDefinition pods = ResourceDefinition.builder("", "v1", "Pod", "pods").build();
    assertThatThrownBy(() -> nodes.storageKey("default", "n1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pods.storageKey("", "web")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pods.storageKey(null, "web")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> nodes.storagePrefix("default")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void storageKey_rejectsEmptyOrSlashedParts() {
    ResourceDefinition pods = ResourceDefinition.builder("", "v1", "Pod", "pods").build();
    assertThatThrownBy(() -> pods.storageKey("default", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pods.storageKey("default", "a/b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pods.storageKey("de/fault", "a")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void selectableFieldNames_namespaced_startWithNameAndNamespace() {
    ResourceDefinition def = ResourceDefinition.builder("", "v1", "Secret", "secrets")
        .selectableField("type", FieldExtractor.string("type"))
        .build();
    assertThat(def.selectableFieldNames()).containsExactly("metadata.name", "metadata.namespace", "type");
  }

  @Test
  void selectableFieldNames_clusterScoped_haveNoNamespace() {
    ResourceDefinition def = ResourceDefinition.builder("", "v1", "Node", "nodes").clusterScoped()
        .selectableField("spec.unschedulable", FieldExtractor.bool("spec.unschedulable"))
        .build();
    assertThat(def.selectableFieldNames()).containsExactly("metadata.name", "spec.unschedulable");
  }

  @Test
  void selectableFieldValues_includeMetadataAndTypeFields_inOrder() {
    ResourceDefinition def = ResourceDefinition.builder("", "v1", "Secret", "secrets")
        .selectableField("type", FieldExtractor.string("type"))
        .build();
    Map<String, String> values = def.selectableFieldValues(
        json("{\"metadata\":{\"name\":\"s\",\"namespace\":\"ns\"},\"type\":\"Opaque\"}"));
    assertThat(values).containsExactly(
        Map.entry("metadata.name", "s"), Map.entry("metadata.namespace", "ns"), Map.entry("type", "Opaque"));
    assertThat(values.keySet()).isEqualTo(def.selectableFieldNames());
  }

  @Test
  void selectableFieldValues_missingMetadata_areEmptyStrings() {
    ResourceDefinition def = widgets();
    assertThat(def.selectableFieldValues(json("{}")))
        .containsExactly(Map.entry("metadata.name", ""), Map.entry("metadata.namespace", ""));
    assertThat(def.selectableFieldValues(json("{\"metadata\":null}")))
        .containsExactly(Map.entry("metadata.name", ""), Map.entry("metadata.namespace", ""));
  }

  @Test
  void selectableFieldValues_isUnmodifiable() {
    Map<String, String> values = widgets().selectableFieldValues(json("{}"));
    assertThatThrownBy(() -> values.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void selectableField_rejectsImplicitMetadataFieldsAndDuplicates() {
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "pods")
        .selectableField("metadata.name", FieldExtractor.string("metadata.name")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "pods")
        .selectableField("metadata.namespace", FieldExtractor.string("metadata.namespace")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "pods")
        .selectableField("a", FieldExtractor.string("a"))
        .selectableField("a", FieldExtractor.string("a")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void builder_rejectsBadNames() {
    assertThatThrownBy(() -> ResourceDefinition.builder("", "", "Pod", "pods"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "", "pods"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "Pods"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "pods/status"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder(null, "v1", "Pod", "pods"))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void builder_rejectsUnknownOrDuplicateVerbs() {
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "pods").verbs("get", "frobnicate"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceDefinition.builder("", "v1", "Pod", "pods").verbs("get", "get"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void accessors_returnUnmodifiableCollections() {
    ResourceDefinition def = ResourceDefinition.builder("", "v1", "Pod", "pods").shortNames("po").build();
    assertThatThrownBy(() -> def.shortNames().add("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> def.verbs().add("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> def.selectableFieldNames().add("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> def.selectableFields().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void builder_isReusable_withoutAffectingBuiltDefinitions() {
    ResourceDefinition.Builder b = ResourceDefinition.builder("", "v1", "Pod", "pods")
        .selectableField("a", FieldExtractor.string("a"));
    ResourceDefinition first = b.build();
    b.selectableField("b", FieldExtractor.string("b"));
    assertThat(first.selectableFieldNames()).containsExactly("metadata.name", "metadata.namespace", "a");
    assertThat(b.build().selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace", "a", "b");
  }
}

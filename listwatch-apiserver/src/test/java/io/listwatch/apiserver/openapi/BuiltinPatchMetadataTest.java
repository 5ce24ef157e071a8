package io.listwatch.apiserver.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The OpenAPI patch extensions come from the same table strategic merge uses. */
class BuiltinPatchMetadataTest {

  private final PatchMetadata patches = PatchMetadata.builtins();

  @Test
  void podSpecContainers_mergeByName_andContainerPorts_byContainerPort() {
    assertThat(patches.field("io.k8s.api.core.v1.PodSpec", "containers")).hasValueSatisfying(p -> {
      assertThat(p.strategy()).isEqualTo("merge");
      assertThat(p.mergeKey()).isEqualTo("name");
    });
    assertThat(patches.field("io.k8s.api.core.v1.Container", "ports")).hasValueSatisfying(p -> {
      assertThat(p.mergeKey()).isEqualTo("containerPort");
      assertThat(p.listMapKeys()).containsExactly("containerPort", "protocol");
    });
    assertThat(patches.field("io.k8s.api.core.v1.PodSpec", "volumes"))
        .hasValueSatisfying(p -> assertThat(p.strategy()).isEqualTo("merge,retainKeys"));
  }

  @Test
  void atomicLists_andUnannotatedFields() {
    assertThat(patches.field("io.k8s.api.core.v1.PodSpec", "tolerations"))
        .hasValueSatisfying(p -> assertThat(p.listType()).isEqualTo("atomic"));
    assertThat(patches.field("io.k8s.api.core.v1.PodSpec", "nodeName")).isEmpty();
    assertThat(patches.strategicMergePatch()).isTrue();
  }

  @Test
  void theServedV3Document_carriesTheExtensions() {
    var schema = ProtoSchemas.builtins(patches).schema("io.k8s.api.core.v1.PodSpec", ProtoSchemas.Dialect.OPENAPI_3);
    assertThat(schema.path("properties").path("containers").path("x-kubernetes-patch-merge-key").asText())
        .isEqualTo("name");
    assertThat(schema.path("properties").path("containers").path("x-kubernetes-patch-strategy").asText())
        .isEqualTo("merge");
  }
}

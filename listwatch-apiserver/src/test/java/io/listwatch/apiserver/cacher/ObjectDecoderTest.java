package io.listwatch.apiserver.cacher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectDecoderTest {

  private static final ResourceDefinition PODS = ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();
  private static final ResourceDefinition NODES = ResourceRegistry.builtins().find("", "v1", "nodes").orElseThrow();

  private final ObjectDecoder pods = new ObjectDecoder(PODS);

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode tree(CachedObject o) throws IOException {
    return ObjectDecoder.MAPPER.readTree(o.json());
  }

  @Test
  void decode_stampsTheStorageRevisionAsResourceVersion() throws IOException {
    CachedObject o = pods.decode("/registry/core/pods/ns/a", 42,
        utf8("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"}}"));

    assertThat(o.resourceVersion()).isEqualTo(42);
    assertThat(tree(o).at("/metadata/resourceVersion").asText()).isEqualTo("42");
    assertThat(o.key()).isEqualTo("/registry/core/pods/ns/a");
    assertThat(o.namespace()).isEqualTo("ns");
    assertThat(o.name()).isEqualTo("a");
  }

  @Test
  void decode_replacesAResourceVersionAlreadyInTheJson() throws IOException {
    CachedObject o = pods.decode("/registry/core/pods/ns/a", 7,
        utf8("{\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"resourceVersion\":\"3\"}}"));

    assertThat(tree(o).at("/metadata/resourceVersion").asText()).isEqualTo("7");
  }

  @Test
  void decode_addsMetadata_whenTheObjectHasNone() throws IOException {
    CachedObject o = pods.decode("/registry/core/pods/ns/a", 5, utf8("{\"kind\":\"Pod\"}"));

    assertThat(tree(o).at("/metadata/resourceVersion").asText()).isEqualTo("5");
    assertThat(o.name()).isEmpty();
    assertThat(o.namespace()).isEmpty();
    assertThat(o.labels()).isEmpty();
  }

  @Test
  void decode_extractsLabelsAndSelectableFields() {
    CachedObject o = pods.decode("/registry/core/pods/ns/a", 5, utf8("{\"metadata\":{\"name\":\"a\","
        + "\"namespace\":\"ns\",\"labels\":{\"app\":\"web\",\"tier\":\"1\"}},\"spec\":{\"nodeName\":\"n1\"}}"));

    assertThat(o.labels()).isEqualTo(Map.of("app", "web", "tier", "1"));
    assertThat(o.fields())
        .containsEntry("metadata.name", "a")
        .containsEntry("metadata.namespace", "ns")
        .containsEntry("spec.nodeName", "n1");
  }

  @Test
  void decode_aClusterScopedObject_hasAnEmptyNamespace() {
    CachedObject o = new ObjectDecoder(NODES).decode("/registry/core/nodes/n1", 5,
        utf8("{\"metadata\":{\"name\":\"n1\"}}"));

    assertThat(o.namespace()).isEmpty();
    assertThat(o.fields()).containsEntry("metadata.name", "n1").doesNotContainKey("metadata.namespace");
  }

  @Test
  void decode_rejectsWhatIsNotAJsonObject() {
    assertThatThrownBy(() -> pods.decode("/registry/core/pods/ns/a", 1, utf8("[1,2]")))
        .isInstanceOf(UnreadableObjectException.class).hasMessageContaining("/registry/core/pods/ns/a");
    assertThatThrownBy(() -> pods.decode("/registry/core/pods/ns/a", 1, utf8("{not json")))
        .isInstanceOf(UnreadableObjectException.class);
  }

  /** What no reader takes (here a field name over Jackson's limit) is unreadable, naming the key. */
  @Test
  void decode_rejectsWhatExceedsTheReadLimits() {
    String tooLong = "k".repeat(io.listwatch.api.JsonLimits.MAX_NAME_LENGTH + 1);
    assertThatThrownBy(() -> pods.decode("/registry/core/pods/ns/a", 1,
        utf8("{\"metadata\":{\"name\":\"a\"},\"data\":{\"" + tooLong + "\":\"v\"}}")))
        .isInstanceOfSatisfying(UnreadableObjectException.class,
            e -> assertThat(e.key()).isEqualTo("/registry/core/pods/ns/a"));
  }

  @Test
  void restamp_keepsTheObject_withAnotherResourceVersion() throws IOException {
    CachedObject o = pods.decode("/registry/core/pods/ns/a", 5,
        utf8("{\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"labels\":{\"app\":\"web\"}}}"));

    CachedObject deleted = pods.restamp(o, 9);

    assertThat(deleted.resourceVersion()).isEqualTo(9);
    assertThat(tree(deleted).at("/metadata/resourceVersion").asText()).isEqualTo("9");
    assertThat(deleted.labels()).isEqualTo(o.labels());
    assertThat(deleted.key()).isEqualTo(o.key());
    assertThat(o.resourceVersion()).as("the original is untouched").isEqualTo(5);
    assertThat(tree(o).at("/metadata/resourceVersion").asText()).isEqualTo("5");
  }
}

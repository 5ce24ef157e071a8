package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.listwatch.client.internal.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JacksonCodecTest {

  private final JacksonCodec<Pod> codec = JacksonCodec.of(Pod.class);

  @Test
  void fabric8Pod_metadataIsReadThroughItsGetters() {
    Pod pod = new PodBuilder().withNewMetadata().withName("web").withNamespace("prod").withUid("u")
        .withResourceVersion("9").withLabels(Map.of("app", "web")).endMetadata().build();
    assertThat(codec.name(pod)).isEqualTo("web");
    assertThat(codec.namespace(pod)).isEqualTo("prod");
    assertThat(codec.uid(pod)).isEqualTo("u");
    assertThat(codec.resourceVersion(pod)).isEqualTo("9");
    assertThat(codec.labels(pod)).containsExactly(Map.entry("app", "web"));
    assertThat(codec.annotations(pod)).isEmpty();
    assertThat(codec.name(new Pod())).as("no metadata").isEmpty();
  }

  @Test
  void decodeAndEncode_roundTrip_ignoringUnknownFields_leavingNullsOut() throws Exception {
    String json = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"},\"surprise\":{\"x\":1},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
    Pod pod;
    try (JsonParser p = Json.FACTORY.createParser(json)) {
      p.nextToken();
      pod = codec.decode(p);
      assertThat(p.currentToken()).isEqualTo(com.fasterxml.jackson.core.JsonToken.END_OBJECT);
    }
    assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
      codec.encode(pod, g);
    }
    String written = out.toString(StandardCharsets.UTF_8);
    assertThat(written).contains("\"name\":\"web\"").doesNotContain("null");
  }

  /** A model by record accessors rather than getters. */
  record Meta(String name, String namespace) {
  }

  record Thing(Meta metadata, String value) {
  }

  @Test
  void recordModels_work_andClassesWithoutMetadataAreRejected() {
    JacksonCodec<Thing> things = JacksonCodec.of(Thing.class);
    Thing t = new Thing(new Meta("n", "ns"), "v");
    assertThat(things.name(t)).isEqualTo("n");
    assertThat(things.namespace(t)).isEqualTo("ns");
    assertThat(things.uid(t)).as("no uid accessor").isEmpty();
    assertThatThrownBy(() -> JacksonCodec.of(String.class))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("getMetadata");
  }
}

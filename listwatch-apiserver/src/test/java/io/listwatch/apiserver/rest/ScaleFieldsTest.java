package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.CustomResourceVersion;
import org.junit.jupiter.api.Test;

class ScaleFieldsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ScaleFields custom(String scale) throws Exception {
    JsonNode version = JSON.readTree("{\"name\":\"v1\",\"subresources\":{\"scale\":" + scale + "}}");
    return ScaleFields.custom(new CustomResourceVersion(JSON.createObjectNode(), version));
  }

  @Test
  void customPaths_areReadAndWritten_creatingMissingObjects() throws Exception {
    ScaleFields fields = custom("""
        {"specReplicasPath":".spec.workers.count","statusReplicasPath":".status.workers.ready",
         "labelSelectorPath":".status.selector"}""");
    ObjectNode obj = (ObjectNode) JSON.readTree("""
        {"metadata":{"name":"w","resourceVersion":"7"},"spec":{},
         "status":{"workers":{"ready":2},"selector":"app=w"}}""");

    assertThat(fields.specReplicas(obj)).as("missing reads as 0, as kube reads a custom resource").isZero();
    fields.setSpecReplicas(obj, 4);

    assertThat(obj.at("/spec/workers/count").intValue()).isEqualTo(4);
    ObjectNode scale = ScaleHandler.scaleOf(obj, fields);
    assertThat(scale.toString()).isEqualTo("{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\","
        + "\"metadata\":{\"name\":\"w\",\"resourceVersion\":\"7\"},\"spec\":{\"replicas\":4},"
        + "\"status\":{\"replicas\":2,\"selector\":\"app=w\"}}");
  }

  @Test
  void withoutALabelSelectorPath_theSelectorIsEmpty() throws Exception {
    ScaleFields fields = custom("{\"specReplicasPath\":\".spec.replicas\",\"statusReplicasPath\":\".status.replicas\"}");

    assertThat(fields.selector(JSON.readTree("{\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}}}}"))).isEmpty();
  }

  @Test
  void builtins_defaultToOneReplica_andPrintTheirLabelSelector() throws Exception {
    JsonNode deployment = JSON.readTree("{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"}}}}");

    assertThat(ScaleFields.builtin().specReplicas(deployment)).isEqualTo(1);
    assertThat(ScaleFields.builtin().selector(deployment)).isEqualTo("app=web");
  }
}

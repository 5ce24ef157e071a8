package io.listwatch.api.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class FieldsV1Test {

  static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode json(String s) {
    try {
      return JSON.readTree(s.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** fieldsV1 as kube 1.32 records them; serializing the parsed set gives the same bytes. */
  static Stream<Arguments> kubeSamples() {
    return Stream.of(
        Arguments.of("kubectl apply --server-side of a Deployment (manager kubectl, Apply)",
            "{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:replicas':{},'f:selector':{},"
                + "'f:template':{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:containers':{"
                + "'k:{\\'name\\':\\'nginx\\'}':{'.':{},'f:image':{},'f:name':{},'f:ports':{"
                + "'k:{\\'containerPort\\':80,\\'protocol\\':\\'TCP\\'}':{'.':{},'f:containerPort':{}}}}}}}}}"),
        Arguments.of("kubectl create of a ConfigMap (manager kubectl-create, Update)",
            "{'f:data':{'.':{},'f:a':{},'f:b':{}}}"),
        Arguments.of("finalizers, a set: v: items",
            "{'f:metadata':{'f:finalizers':{'.':{},'v:\\'a.example.com/x\\'':{},'v:\\'b\\'':{}}}}"),
        Arguments.of("a list index",
            "{'f:spec':{'f:items':{'i:0':{'f:x':{}},'i:1':{}}}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeSamples")
  void parseThenSerialize_givesKubesBytes(String what, String fieldsV1) throws Exception {
    JsonNode in = json(fieldsV1);
    String back = JSON.writeValueAsString(FieldsV1.toJson(FieldsV1.parse(in)));
    assertThat(back).isEqualTo(JSON.writeValueAsString(in));
  }

  /** A list item's key is written as Jackson writes its JSON, escapes and all. */
  @Test
  void keyOf_writesTheKeyAsJacksonWouldWriteIt() {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    fields.put("name", TextNode.valueOf("a\"b\u00e9\n\\"));
    fields.put("n", IntNode.valueOf(-3));
    fields.put("ok", com.fasterxml.jackson.databind.node.BooleanNode.TRUE);
    PathElement flat = PathElement.key(Map.of("port", IntNode.valueOf(80), "protocol", TextNode.valueOf("TCP")));
    PathElement mixed = PathElement.key(fields);

    assertThat(FieldsV1.keyOf(flat)).isEqualTo("k:" + flat.key());
    assertThat(FieldsV1.keyOf(mixed)).isEqualTo("k:" + mixed.key())
        .isEqualTo("k:{\"n\":-3,\"name\":\"a\\\"b\u00e9\\n\\\\\",\"ok\":true}");
    PathElement fractional = PathElement.key(Map.of("f", com.fasterxml.jackson.databind.node.DoubleNode.valueOf(1.5)));
    assertThat(FieldsV1.keyOf(fractional)).isEqualTo("k:{\"f\":1.5}");
  }

  @Test
  void deployment_parsesToKubesPaths() {
    FieldSet s = FieldsV1.parse(json((String) kubeSamples().findFirst().orElseThrow().get()[1]));
    assertThat(s.toString()).isEqualTo("""
        .metadata.labels.app
        .spec.replicas
        .spec.selector
        .spec.template.metadata.labels.app
        .spec.template.spec.containers[name="nginx"]
        .spec.template.spec.containers[name="nginx"].image
        .spec.template.spec.containers[name="nginx"].name
        .spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]
        .spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].containerPort
        """);
  }

  @Test
  void serialize_sortsFieldsBeforeKeysBeforeValuesBeforeIndexes_andKeysByName() {
    Map<String, JsonNode> key = new LinkedHashMap<>();
    key.put("protocol", TextNode.valueOf("TCP"));
    key.put("containerPort", IntNode.valueOf(8080));
    Map<String, JsonNode> smaller = Map.of("containerPort", IntNode.valueOf(443), "protocol", TextNode.valueOf("TCP"));
    FieldPath list = FieldPath.of("l");
    FieldSet s = FieldSet.of(list.child(PathElement.index(0)), list.child(PathElement.value(TextNode.valueOf("x"))),
        list.child(PathElement.key(key)), list.child(PathElement.key(smaller)), list.child(PathElement.field("z")),
        list.child(PathElement.value(IntNode.valueOf(2))));
    assertThat(FieldsV1.toJson(s).toString()).isEqualTo(
        "{\"f:l\":{\"f:z\":{},\"k:{\\\"containerPort\\\":443,\\\"protocol\\\":\\\"TCP\\\"}\":{},"
            + "\"k:{\\\"containerPort\\\":8080,\\\"protocol\\\":\\\"TCP\\\"}\":{},\"v:2\":{},\"v:\\\"x\\\"\":{},\"i:0\":{}}}");
  }

  @Test
  void parse_rejectsUnknownElementsAndNonObjects() {
    assertThatThrownBy(() -> FieldsV1.parse(json("{'x:a':{}}"))).hasMessageContaining("unknown path element x:a");
    assertThatThrownBy(() -> FieldsV1.parse(json("{'f:a':1}"))).hasMessageContaining("must be an object");
    assertThatThrownBy(() -> FieldsV1.parse(json("{'k:[1]':{}}"))).hasMessageContaining("must be a JSON object");
  }
}

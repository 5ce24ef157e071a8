package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.internal.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DynamicObjectTest {

  private static final String POD = """
      {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web-1", "namespace": "prod", "uid": "u-1", "resourceVersion": "17",
          "labels": {"app": "web", "tier": "front"}, "annotations": {"note": "x"},
          "ownerReferences": [{"kind": "ReplicaSet", "name": "web"}]},
        "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}],
          "priority": 5, "ratio": 0.5, "flag": true, "nothing": null},
        "status": {"phase": "Running"}
      }""";

  @Test
  void labels_keepTheLastValueOfARepeatedKey_andSkipNonStrings() {
    DynamicObject o = DynamicObject.parse(
        "{\"metadata\":{\"labels\":{\"a\":\"1\",\"n\":7,\"b\":\"2\",\"a\":\"3\"}}}");
    assertThat(o.labels()).isEqualTo(Map.of("a", "3", "b", "2"));
  }

  @Test
  void labels_holdManyEntries() {
    StringBuilder json = new StringBuilder("{\"metadata\":{\"annotations\":{");
    Map<String, String> expected = new java.util.HashMap<>();
    for (int i = 0; i < 30; i++) {
      json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v").append(i).append('"');
      expected.put("k" + i, "v" + i);
    }
    DynamicObject o = DynamicObject.parse(json.append("}}}").toString());
    assertThat(o.annotations()).isEqualTo(expected);
  }

  @Test
  void resourceVersionAndUid_readBackExactly_whateverTheirForm() {
    for (String rv : new String[] {"17", "0", "007", "abc", "", "1000000000000000000", "999999999999999999"}) {
      for (String uid : new String[] {"6f1e2b8a-3c4d-4e5f-9a0b-1c2d3e4f5a6b", "6F1E2B8A-3C4D-4E5F-9A0B-1C2D3E4F5A6B",
          "u-1", "", "00000000-0000-0000-0000-000000000000"}) {
        DynamicObject o = DynamicObject.parse(
            "{\"metadata\":{\"resourceVersion\":\"" + rv + "\",\"uid\":\"" + uid + "\"}}");
        assertThat(o.resourceVersion()).isEqualTo(rv);
        assertThat(o.uid()).isEqualTo(uid);
        assertThat(DynamicObject.CODEC.resourceVersion(o)).isEqualTo(rv);
        assertThat(DynamicObject.CODEC.uid(o)).isEqualTo(uid);
      }
    }
  }

  @Test
  void annotations_readFromTheBytes_lastValueWins_nonStringsSkipped() {
    DynamicObject o = DynamicObject.parse("{\"metadata\":{\"annotations\":{\"a\":\"1\",\"n\":7,"
        + "\"q\":\"say \\\"hi\\\" {}\",\"a\":\"3\"}},\"spec\":{\"annotations\":{\"x\":\"y\"}}}");
    assertThat(o.annotations()).isEqualTo(Map.of("a", "3", "q", "say \"hi\" {}"));
    assertThat(DynamicObject.CODEC.annotations(o)).isEqualTo(o.annotations());
    assertThat(DynamicObject.parse("{\"metadata\":{\"annotations\":null}}").annotations()).isEmpty();
    DynamicObject repeated = DynamicObject.parse(
        "{\"metadata\":{\"annotations\":{\"a\":\"1\"}},\"metadata\":{\"name\":\"n\"}}");
    assertThat(repeated.annotations()).isEqualTo(Map.of("a", "1"));
    assertThat(repeated.name()).isEqualTo("n");
  }

  @Test
  void parse_readsMetadata_andKeepsEveryFieldOfTheJson() {
    DynamicObject pod = DynamicObject.parse(POD);
    assertThat(pod.apiVersion()).isEqualTo("v1");
    assertThat(pod.kind()).isEqualTo("Pod");
    assertThat(pod.name()).isEqualTo("web-1");
    assertThat(pod.namespace()).isEqualTo("prod");
    assertThat(pod.uid()).isEqualTo("u-1");
    assertThat(pod.resourceVersion()).isEqualTo("17");
    assertThat(pod.labels()).isEqualTo(Map.of("app", "web", "tier", "front"));
    assertThat(pod.annotations()).isEqualTo(Map.of("note", "x"));
    assertThat(pod.toTree()).isEqualTo(Json.MAPPER.valueToTree(readTree(POD)));
  }

  @Test
  void absentMetadata_readsAsEmptyStringsAndMaps() {
    DynamicObject o = DynamicObject.parse("{\"spec\":{}}");
    assertThat(o.name()).isEmpty();
    assertThat(o.namespace()).isEmpty();
    assertThat(o.resourceVersion()).isEmpty();
    assertThat(o.kind()).isEmpty();
    assertThat(o.labels()).isEmpty();
    assertThat(o.annotations()).isEmpty();
    DynamicObject nulls = DynamicObject.parse("{\"metadata\":{\"name\":null,\"labels\":null}}");
    assertThat(nulls.name()).isEmpty();
    assertThat(nulls.labels()).isEmpty();
  }

  @Test
  void repeatedValues_areSharedBetweenObjects() {
    DynamicObject a = DynamicObject.parse(POD);
    DynamicObject b = DynamicObject.parse(POD.replace("web-1", "web-2"));
    assertThat(b.namespace()).isSameAs(a.namespace());
    assertThat(b.labels().get("app")).isSameAs(a.labels().get("app"));
    assertThat(b.kind()).isSameAs(a.kind());
  }

  @Test
  void copies_doNotShareState_andEqualityIsOnTheJson() {
    DynamicObject pod = DynamicObject.parse(POD);
    byte[] json = pod.toJson();
    json[0] = 'X';
    ObjectNode tree = pod.toTree();
    tree.put("kind", "Changed");
    assertThat(pod.toTree().get("kind").asText()).isEqualTo("Pod");
    assertThat(pod).isEqualTo(DynamicObject.parse(POD)).hasSameHashCodeAs(DynamicObject.parse(POD));
    assertThat(pod).isNotEqualTo(DynamicObject.parse(POD.replace("nginx", "httpd")));
    assertThat(DynamicObject.of(pod.toTree())).isEqualTo(pod);
  }

  @Test
  void get_findsValuesByPath_andEmptyForMissingSteps() {
    DynamicObject pod = DynamicObject.parse(POD);
    assertThat(pod.get("spec", "containers", "0", "image").orElseThrow().asText()).isEqualTo("nginx:1.27");
    assertThat(pod.get("spec", "priority").orElseThrow().asInt()).isEqualTo(5);
    assertThat(pod.get("status").orElseThrow().get("phase").asText()).isEqualTo("Running");
    assertThat(pod.get("spec", "containers", "1")).isEmpty();
    assertThat(pod.get("spec", "missing")).isEmpty();
    assertThat(pod.get("spec", "containers", "x")).isEmpty();
  }

  @Test
  void codec_encodesTheSameJson() throws Exception {
    DynamicObject pod = DynamicObject.parse(POD);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
      DynamicObject.CODEC.encode(pod, g);
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(pod.toJsonString());
    assertThat(DynamicObject.CODEC.name(pod)).isEqualTo("web-1");
    assertThat(DynamicObject.CODEC.labels(pod)).containsEntry("tier", "front");
  }

  @Test
  void parse_rejectsWhatIsNotOneJsonObject() {
    assertThatThrownBy(() -> DynamicObject.parse("[1]")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DynamicObject.parse("{\"a\":")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DynamicObject.parse("{} {}")).isInstanceOf(IllegalArgumentException.class);
  }

  private static Object readTree(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}

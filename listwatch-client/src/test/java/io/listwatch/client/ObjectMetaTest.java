package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.client.internal.Json;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectMetaTest {

  /** Every field of kube's ObjectMeta, as a server sends them. */
  private static final String FULL = """
      {"name": "w1", "generateName": "w-", "namespace": "ns", "selfLink": "/apis/example.com/v1/namespaces/ns/widgets/w1",
       "uid": "0b5a3c1e-1111-4d2c-9a7e-3f1c2b4a5d6e", "resourceVersion": "42", "generation": 3,
       "creationTimestamp": "2026-01-02T03:04:05Z", "deletionTimestamp": "2026-01-02T03:05:05Z",
       "deletionGracePeriodSeconds": 0, "labels": {"b": "2", "a": "1"}, "annotations": {"note": "x"},
       "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "owner",
         "uid": "9c1d2e3f-2222-4d2c-9a7e-3f1c2b4a5d6e", "controller": true, "blockOwnerDeletion": true}],
       "finalizers": ["example.com/cleanup"],
       "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "example.com/v1",
         "time": "2026-01-02T03:04:05Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {".": {}}}}]}""";

  @Test
  void everyFieldOfKubesObjectMeta_survivesADecodeAndEncode() throws Exception {
    ObjectMeta meta = Json.MAPPER.readValue(FULL, ObjectMeta.class);

    assertThat(meta.generation()).isEqualTo(3L);
    assertThat(meta.labels()).containsExactly(Map.entry("b", "2"), Map.entry("a", "1"));
    assertThat(meta.ownerReferences().get(0).controller()).isTrue();
    // same fields, values and order (kube's) as read
    assertThat(Json.MAPPER.writeValueAsString(meta)).isEqualTo(Json.MAPPER.readTree(FULL).toString());
  }

  @Test
  void of_writesOnlyNamespaceAndName_andWithersKeepTheRest() throws Exception {
    ObjectMeta meta = ObjectMeta.of("ns", "w1").withLabels(Map.of("app", "shop"));

    assertThat(Json.MAPPER.writeValueAsString(meta))
        .isEqualTo("{\"name\":\"w1\",\"namespace\":\"ns\",\"labels\":{\"app\":\"shop\"}}");
    assertThat(meta.withAnnotations(Map.of("k", "v")).labels()).containsEntry("app", "shop");
  }

  @Test
  void collections_areCopies_thatCannotBeChanged() {
    Map<String, String> labels = new HashMap<>(Map.of("app", "shop"));
    ObjectMeta meta = ObjectMeta.of("ns", "w1").withLabels(labels);
    labels.put("tier", "web");

    assertThat(meta.labels()).containsOnlyKeys("app");
    assertThatThrownBy(() -> meta.labels().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
  }
}

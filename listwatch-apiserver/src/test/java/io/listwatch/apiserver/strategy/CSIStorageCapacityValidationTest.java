package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * CSIStorageCapacities: kube 1.32's {@code ValidateCSIStorageCapacity} and
 * {@code ValidateCSIStorageCapacityUpdate}, from the scenarios of kube's
 * {@code TestValidateCSIStorageCapacity} and {@code TestCSIStorageCapacityValidationUpdate}.
 */
class CSIStorageCapacityValidationTest {

  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
      + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      + "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String GOOD = "{\"metadata\":{\"name\":\"csc-329803da-fdd2-42e4-af6f-7b07e7ccc305\","
      + "\"namespace\":\"default\"},\"storageClassName\":\"test-sc\"";

  private final CSIStorageCapacityStrategy strategy = new CSIStorageCapacityStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      '' |
      ,"capacity":"1" |
      ,"nodeTopology":{"matchLabels":{"foo":"bar"}} |
      ,"nodeTopology":{} |
      ,"maximumVolumeSize":"-1" |
      ,"capacity":"-11" | capacity: Invalid value: "-11": must be greater than or equal to 0
      ,"nodeTopology":{"matchExpressions":[{"key":"foo","operator":"In"}]} | nodeTopology.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'
      """)
  void create(String fields, String causes) {
    assertThat(StrategyCases.create(strategy, GOOD + fields + "}"))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void create_storageClassNameRequiredAndASubdomain() {
    assertThat(StrategyCases.create(strategy, GOOD.replace("test-sc", "") + "}"))
        .containsExactly("storageClassName: Invalid value: \"\": " + SUBDOMAIN);
    assertThat(StrategyCases.create(strategy, GOOD.replace("test-sc", "-invalid-@#$%^&*()-") + "}"))
        .containsExactly("storageClassName: Invalid value: \"-invalid-@#$%^&*()-\": " + SUBDOMAIN);
  }

  private static final String OLD = GOOD + ",\"nodeTopology\":{\"matchLabels\":{\"foo\":\"bar\"}},\"capacity\":\"1Gi\"}";

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "capacity":"1Gi"           | "capacity":"2Gi" |
      "capacity":"1Gi"           | "capacity":"1Gi","maximumVolumeSize":"1Gi" |
      "storageClassName":"test-sc" | "storageClassName":"other" | storageClassName: Invalid value: "other": field is immutable
      {"foo":"bar"}              | {"foo":"bar2"} | nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"foo":"bar2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable
      "nodeTopology":{"matchLabels":{"foo":"bar"}}, | '' | nodeTopology: Invalid value: "null": field is immutable
      """)
  void update(String from, String to, String causes) {
    assertThat(StrategyCases.update(strategy, OLD, OLD.replace(from, to)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void endToEnd_createGetUpdate() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String path = "/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities";
      assertThat(core.send("POST", path, Map.of(), "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"CSIStorageCapacity\","
          + OLD.substring(1)).code()).isEqualTo(201);
      String name = path + "/csc-329803da-fdd2-42e4-af6f-7b07e7ccc305";
      ObjectNode stored = StrategyCases.body(core.send("GET", name, Map.of(), null));
      stored.put("capacity", "2Gi");
      stored = StrategyCases.body(core.send("PUT", name, Map.of(), stored.toString()));
      assertThat(stored.path("capacity").asText()).isEqualTo("2Gi");
      stored.put("storageClassName", "other");
      StatusException e = core.refusal("PUT", name, Map.of(), stored.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("CSIStorageCapacity.storage.k8s.io \"csc-329803da-fdd2-42e4-af6f-7b07e7ccc305\" "
          + "is invalid: storageClassName: Invalid value: \"other\": field is immutable");
    }
  }
}

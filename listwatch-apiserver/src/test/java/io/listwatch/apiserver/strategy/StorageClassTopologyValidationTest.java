package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's {@code validateAllowedTopologies} of a StorageClass (cases of kube's
 * {@code TestValidateAllowedTopologies}): each row the {@code allowedTopologies} list and every
 * cause kube 1.32 gives, or none.
 */
class StorageClassTopologyValidationTest {

  private static final String ZONE = "{\"key\":\"failure-domain.beta.kubernetes.io/zone\",\"values\":[\"zone1\"]}";
  private static final String ZONE2 = "{\"key\":\"kubernetes.io/hostname\",\"values\":[\"node1\"]}";

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      []                                                                           |
      [{"matchLabelExpressions":[@]}]                                              |
      [{"matchLabelExpressions":[@,#]},{"matchLabelExpressions":[#]}]              |
      [{"matchLabelExpressions":[{"key":"a","values":["x","y"]}]},{"matchLabelExpressions":[{"key":"a","values":["y"]}]}] |
      [{}]                                                                         | allowedTopologies[0].matchLabelExpressions: Duplicate value: ""
      [{"matchLabelExpressions":[]},{"matchLabelExpressions":[@]}]                 | allowedTopologies[0].matchLabelExpressions: Duplicate value: ""; allowedTopologies[0].matchLabelExpressions: Duplicate value: ""
      [{},{}]                                                                      | allowedTopologies[0].matchLabelExpressions: Duplicate value: ""; allowedTopologies[0].matchLabelExpressions: Duplicate value: ""; allowedTopologies[1].matchLabelExpressions: Duplicate value: ""; allowedTopologies[1].matchLabelExpressions: Duplicate value: ""; allowedTopologies[1].matchLabelExpressions: Duplicate value: ""
      [{"matchLabelExpressions":[{"key":"","values":["zone1"]}]}]                 | allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: "": name part must be non-empty; allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      [{"matchLabelExpressions":[{"key":"zone","values":[]}]}]                    | allowedTopologies[0].matchLabelExpressions[0].values: Required value
      [{"matchLabelExpressions":[{"key":"zone"}]}]                                | allowedTopologies[0].matchLabelExpressions[0].values: Required value
      [{"matchLabelExpressions":[{"key":"zone","values":["z1","z2","z1"]}]}]      | allowedTopologies[0].matchLabelExpressions[0].values[2]: Duplicate value: "z1"
      [{"matchLabelExpressions":[@,@]}]                                            | allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "failure-domain.beta.kubernetes.io/zone"
      [{"matchLabelExpressions":[@]},{"matchLabelExpressions":[@]}]                | allowedTopologies[1].matchLabelExpressions: Duplicate value: ""
      [{"matchLabelExpressions":[@,#]},{"matchLabelExpressions":[#,@]}]            | allowedTopologies[1].matchLabelExpressions: Duplicate value: ""
      [{"matchLabelExpressions":[{"key":"a","values":["x","y"]}]},{"matchLabelExpressions":[{"key":"a","values":["y","x","x"]}]}] | allowedTopologies[1].matchLabelExpressions[0].values[2]: Duplicate value: "x"; allowedTopologies[1].matchLabelExpressions: Duplicate value: ""
      """)
  void allowedTopologies(String topologies, String causes) {
    String json = "{\"metadata\":{\"name\":\"fast\"},\"provisioner\":\"kubernetes.io/aws-ebs\",\"allowedTopologies\":"
        + topologies.replace("@", ZONE).replace("#", ZONE2) + "}";
    assertThat(StrategyCases.create(new StorageClassStrategy(), json))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void update_validatesTheNewTopologies_andMayChangeThem() {
    String old = "{\"metadata\":{\"name\":\"fast\"},\"provisioner\":\"kubernetes.io/aws-ebs\",\"allowedTopologies\":[{\"matchLabelExpressions\":["
        + ZONE + "]}]}";
    assertThat(StrategyCases.update(new StorageClassStrategy(), old, old.replace("zone1", "zone2"))).isEmpty();
    assertThat(StrategyCases.update(new StorageClassStrategy(), old, old.replace("[\"zone1\"]", "[]")))
        .containsExactly("allowedTopologies[0].matchLabelExpressions[0].values: Required value");
  }

  @Test
  void endToEnd_422() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/apis/storage.k8s.io/v1/storageclasses", Map.of(),
          "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"fast\"},"
              + "\"provisioner\":\"x.example.com\",\"allowedTopologies\":[{}]}");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("StorageClass.storage.k8s.io \"fast\" is invalid: "
          + "allowedTopologies[0].matchLabelExpressions: Duplicate value: \"\"");
    }
  }
}

package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected messages are kube's apiextensions validation's for printer columns, scale and selectable fields. */
class CustomResourceViewsValidationTest {

  private static final String SCHEMA = """
      "schema":{"openAPIV3Schema":{"type":"object","properties":{
        "spec":{"type":"object","properties":{"color":{"type":"string"},"replicas":{"type":"integer"},
          "on":{"type":"boolean"},"size":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}},
          "f1":{"type":"string"},"f2":{"type":"string"},"f3":{"type":"string"},"f4":{"type":"string"},
          "f5":{"type":"string"},"f6":{"type":"string"},"f7":{"type":"string"}}},
        "status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}""";

  private static List<String> causes(String versionFields) throws Exception {
    JsonNode spec = new ObjectMapper().readTree("{\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
        + SCHEMA + (versionFields.isEmpty() ? "" : "," + versionFields) + "}]}");
    List<Status.Cause> causes = new ArrayList<>();
    CustomResourceViewsValidation.check(causes, spec);
    return causes.stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  @Test
  void wellFormedColumnsScaleAndSelectableFields_pass() throws Exception {
    assertThat(causes("""
        "additionalPrinterColumns":[{"name":"Color","type":"string","jsonPath":".spec.color"},
          {"name":"Ready","type":"string","jsonPath":".status.conditions[?(@.type==\\"Ready\\")].status"},
          {"name":"Replicas","type":"integer","format":"int32","jsonPath":".spec.replicas"}],
        "subresources":{"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas",
          "labelSelectorPath":".status.selector"}},
        "selectableFields":[{"jsonPath":".spec.color"},{"jsonPath":".spec.replicas"},{"jsonPath":".spec.on"}]
        """)).isEmpty();
  }

  @Test
  void printerColumns_needANameAKnownTypeAndFormat_andADottedPath() throws Exception {
    assertThat(causes("""
        "additionalPrinterColumns":[{"type":"int","format":"uuid","jsonPath":"spec.x"},{"name":"N"}]
        """)).containsExactly(
        "spec.versions[0].additionalPrinterColumns[0].name: Required value",
        "spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: \"int\": supported values: "
            + "\"boolean\", \"date\", \"integer\", \"number\", \"string\"",
        "spec.versions[0].additionalPrinterColumns[0].format: Unsupported value: \"uuid\": supported values: "
            + "\"byte\", \"date\", \"date-time\", \"double\", \"float\", \"int32\", \"int64\", \"password\"",
        "spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value: \"spec.x\": "
            + "must be a simple json path starting with .",
        "spec.versions[0].additionalPrinterColumns[1].type: Required value: must be one of "
            + "boolean,date,integer,number,string",
        "spec.versions[0].additionalPrinterColumns[1].jsonPath: Required value");
  }

  @Test
  void scalePaths_mustLieUnderSpecAndStatus() throws Exception {
    assertThat(causes("""
        "subresources":{"scale":{"specReplicasPath":".status.replicas","labelSelectorPath":".metadata.labels"}}
        """)).containsExactly(
        "spec.versions[0].subresources.scale.specReplicasPath: Invalid value: \".status.replicas\": "
            + "should be a json path under .spec",
        "spec.versions[0].subresources.scale.statusReplicasPath: Required value",
        "spec.versions[0].subresources.scale.labelSelectorPath: Invalid value: \".metadata.labels\": "
            + "should be a json path under either .spec or .status");
  }

  @Test
  void selectableFields_mustBeScalarSchemaFieldsOutsideMetadata() throws Exception {
    assertThat(causes("""
        "selectableFields":[{"jsonPath":".spec.size"},{"jsonPath":".spec.tags"},{"jsonPath":".spec.nope"},
          {"jsonPath":".metadata.name"},{"jsonPath":".spec.color"},{"jsonPath":".spec.color"},{}]
        """)).containsExactly(
        "spec.versions[0].selectableFields[0].jsonPath: Invalid value: \".spec.size\": must point to a field of "
            + "type string, boolean or integer. Enum string fields and strings with formats are allowed.",
        "spec.versions[0].selectableFields[1].jsonPath: Invalid value: \".spec.tags\": must point to a field of "
            + "type string, boolean or integer. Enum string fields and strings with formats are allowed.",
        "spec.versions[0].selectableFields[2].jsonPath: Invalid value: \".spec.nope\": is an invalid path: "
            + "does not refer to a valid field",
        "spec.versions[0].selectableFields[3].jsonPath: Invalid value: \".metadata.name\": "
            + "must not point to fields in metadata",
        "spec.versions[0].selectableFields[5].jsonPath: Duplicate value: \".spec.color\"",
        "spec.versions[0].selectableFields[6].jsonPath: Required value");
  }

  @Test
  void selectableFields_areAtMostEight() throws Exception {
    StringBuilder fields = new StringBuilder("\"selectableFields\":[{\"jsonPath\":\".spec.color\"},"
        + "{\"jsonPath\":\".spec.replicas\"}");
    for (int i = 1; i <= 7; i++) {
      fields.append(",{\"jsonPath\":\".spec.f").append(i).append("\"}");
    }
    assertThat(causes(fields + "]")).containsExactly(
        "spec.versions[0].selectableFields: Too many: 9: must have at most 8 items");
  }
}

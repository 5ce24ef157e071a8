package io.listwatch.apiserver.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.listwatch.api.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldErrorsTest {

  @Test
  void invalid_formatsLikeKubeErrorBody() {
    assertThat(FieldErrors.invalid("metadata.name", "Foo", "bad"))
        .isEqualTo(new Status.Cause("FieldValueInvalid", "Invalid value: \"Foo\": bad", "metadata.name"));
    assertThat(FieldErrors.invalid("metadata.generation", -1, "must be greater than or equal to 0").message())
        .isEqualTo("Invalid value: -1: must be greater than or equal to 0");
  }

  @Test
  void required_omitsEmptyDetail() {
    assertThat(FieldErrors.required("metadata.namespace", ""))
        .isEqualTo(new Status.Cause("FieldValueRequired", "Required value", "metadata.namespace"));
    assertThat(FieldErrors.required("metadata.name", "name or generateName is required").message())
        .isEqualTo("Required value: name or generateName is required");
  }

  @Test
  void forbidden_tooLong_andTypeInvalid_useKubeReasonsAndWording() {
    assertThat(FieldErrors.forbidden("metadata.namespace", "not allowed on this type"))
        .isEqualTo(new Status.Cause("FieldValueForbidden", "Forbidden: not allowed on this type",
            "metadata.namespace"));
    assertThat(FieldErrors.tooLong("metadata.annotations", 262144))
        .isEqualTo(new Status.Cause("FieldValueTooLong", "Too long: may not be more than 262144 bytes",
            "metadata.annotations"));
    assertThat(FieldErrors.tooLong("x", 1).message()).isEqualTo("Too long: may not be more than 1 byte");
    assertThat(FieldErrors.typeInvalid("metadata.name", JsonNodeFactory.instance.numberNode(5), "string"))
        .isEqualTo(new Status.Cause("FieldValueTypeInvalid",
            "Invalid value: \"integer\": must be of type string", "metadata.name"));
  }

  @Test
  void goQuote_escapesLikeStrconvQuote() {
    assertThat(FieldErrors.goQuote("plain")).isEqualTo("\"plain\"");
    assertThat(FieldErrors.goQuote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(FieldErrors.goQuote("\n\t\r\u0007\b\f\u000b")).isEqualTo("\"\\n\\t\\r\\a\\b\\f\\v\"");
    assertThat(FieldErrors.goQuote("\u0001\u007f")).isEqualTo("\"\\x01\\x7f\"");
    assertThat(FieldErrors.goQuote("héllo €")).isEqualTo("\"héllo €\"");
    assertThat(FieldErrors.goQuote("\u00a0\u200b")).isEqualTo("\"\\u00a0\\u200b\"");
    assertThat(FieldErrors.goQuote("😀")).isEqualTo("\"😀\"");
    assertThat(FieldErrors.goQuote("\ud800")).isEqualTo("\"\\ufffd\"");
  }

  @Test
  void goValue_formatsStringSlicesLikeGo() {
    assertThat(FieldErrors.goValue(List.of("orphan", "foregroundDeletion")))
        .isEqualTo("[]string{\"orphan\", \"foregroundDeletion\"}");
  }

  @Test
  void goValue_formatsStringMapsLikeGo_keysSorted() {
    assertThat(FieldErrors.goValue(java.util.Map.of("tier", "web", "app", "x")))
        .isEqualTo("map[string]string{\"app\":\"x\", \"tier\":\"web\"}");
    assertThat(FieldErrors.goValue(null)).isEqualTo("\"null\"");
  }

  @Test
  void notSupported_tooMany_notFound_formatLikeKube() {
    assertThat(FieldErrors.notSupported("spec.restartPolicy", "Sometimes", List.of("Always", "OnFailure", "Never")))
        .isEqualTo(new Status.Cause("FieldValueNotSupported",
            "Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
            "spec.restartPolicy"));
    assertThat(FieldErrors.tooMany("spec.hostAliases", 5, 3).message()).isEqualTo("Too many: 5: must have at most 3 items");
    assertThat(FieldErrors.notFound("spec.x", "y").message()).isEqualTo("Not found: \"y\"");
  }

  @Test
  void jsonType_namesEveryJsonType() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    assertThat(FieldErrors.jsonType(f.textNode("x"))).isEqualTo("string");
    assertThat(FieldErrors.jsonType(f.numberNode(1))).isEqualTo("integer");
    assertThat(FieldErrors.jsonType(f.numberNode(1.5))).isEqualTo("number");
    assertThat(FieldErrors.jsonType(f.booleanNode(true))).isEqualTo("boolean");
    assertThat(FieldErrors.jsonType(f.arrayNode())).isEqualTo("array");
    assertThat(FieldErrors.jsonType(f.objectNode())).isEqualTo("object");
    assertThat(FieldErrors.jsonType(f.nullNode())).isEqualTo("null");
  }
}

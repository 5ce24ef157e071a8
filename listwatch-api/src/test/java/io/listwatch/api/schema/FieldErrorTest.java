package io.listwatch.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldErrorTest {

  @Test
  void toCause_carriesReasonFieldAndKubesMessage() {
    FieldError e = FieldError.notSupported("spec.mode", Json.parse("'x'"), List.of("a", "b"));

    assertThat(e.toCause()).isEqualTo(new Status.Cause("FieldValueNotSupported",
        "Unsupported value: \"x\": supported values: \"a\", \"b\"", "spec.mode"));
    assertThat(e.toString()).isEqualTo("spec.mode: Unsupported value: \"x\": supported values: \"a\", \"b\"");
  }

  @Test
  void badValues_printAsKubePrintsThem() {
    assertThat(FieldError.invalid("f", Json.parse("{'b':1,'a':[true,2.5]}"), "d").message())
        .isEqualTo("Invalid value: {\"a\":[true,2.5],\"b\":1}: d");
    assertThat(FieldError.invalid("f", Json.parse("null"), "d").message())
        .isEqualTo("Invalid value: \"null\": d");
    assertThat(FieldError.invalid("f", Json.parse("3.0"), "d").message())
        .isEqualTo("Invalid value: 3: d");
    assertThat(FieldError.invalid("f", "a\"b", "d").message())
        .isEqualTo("Invalid value: \"a\\\"b\": d");
  }

  @Test
  void required_withoutDetail_isTheTypeAlone() {
    assertThat(FieldError.required("spec.a", "").toString()).isEqualTo("spec.a: Required value");
    assertThat(FieldError.required("spec.a", "").toCause().reason()).isEqualTo("FieldValueRequired");
  }
}

package io.listwatch.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FieldExtractorTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode json(String s) {
    try {
      return MAPPER.readTree(s);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void string_readsNestedText() {
    assertThat(FieldExtractor.string("spec.nodeName").extract(json("{\"spec\":{\"nodeName\":\"n1\"}}")))
        .isEqualTo("n1");
  }

  @Test
  void string_readsTopLevelField() {
    assertThat(FieldExtractor.string("type").extract(json("{\"type\":\"Opaque\"}"))).isEqualTo("Opaque");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{}", "{\"spec\":null}", "{\"spec\":{}}", "{\"spec\":{\"nodeName\":null}}",
      "{\"spec\":\"flat\"}", "{\"spec\":[1]}", "{\"spec\":{\"nodeName\":{\"a\":1}}}",
      "{\"spec\":{\"nodeName\":[\"x\"]}}"})
  void string_isEmpty_whenMissingNullOrNotScalar(String object) {
    assertThat(FieldExtractor.string("spec.nodeName").extract(json(object))).isEmpty();
  }

  @Test
  void string_rendersBooleansAndNumbersAsJsonText() {
    FieldExtractor e = FieldExtractor.string("a.b");
    assertThat(e.extract(json("{\"a\":{\"b\":true}}"))).isEqualTo("true");
    assertThat(e.extract(json("{\"a\":{\"b\":false}}"))).isEqualTo("false");
    assertThat(e.extract(json("{\"a\":{\"b\":42}}"))).isEqualTo("42");
  }

  @Test
  void string_onNonObjectRoot_isEmpty() {
    assertThat(FieldExtractor.string("a").extract(json("[1,2]"))).isEmpty();
    assertThat(FieldExtractor.string("a").extract(json("\"x\""))).isEmpty();
  }

  @Test
  void bool_rendersTrueAndFalse() {
    FieldExtractor e = FieldExtractor.bool("spec.unschedulable");
    assertThat(e.extract(json("{\"spec\":{\"unschedulable\":true}}"))).isEqualTo("true");
    assertThat(e.extract(json("{\"spec\":{\"unschedulable\":false}}"))).isEqualTo("false");
  }

  @Test
  void bool_isFalse_whenMissingOrNull_likeGoZeroValue() {
    FieldExtractor e = FieldExtractor.bool("spec.unschedulable");
    assertThat(e.extract(json("{}"))).isEqualTo("false");
    assertThat(e.extract(json("{\"spec\":{}}"))).isEqualTo("false");
    assertThat(e.extract(json("{\"spec\":{\"unschedulable\":null}}"))).isEqualTo("false");
  }

  @Test
  void integer_rendersDecimal_andZeroWhenMissing() {
    FieldExtractor e = FieldExtractor.integer("status.replicas");
    assertThat(e.extract(json("{\"status\":{\"replicas\":3}}"))).isEqualTo("3");
    assertThat(e.extract(json("{\"status\":{}}"))).isEqualTo("0");
    assertThat(e.extract(json("{}"))).isEqualTo("0");
  }

  @Test
  void orElse_usesFallback_onlyWhenFirstIsEmpty() {
    FieldExtractor source = FieldExtractor.string("source.component")
        .orElse(FieldExtractor.string("reportingComponent"));
    assertThat(source.extract(json("{\"source\":{\"component\":\"kubelet\"},\"reportingComponent\":\"x\"}")))
        .isEqualTo("kubelet");
    assertThat(source.extract(json("{\"source\":{},\"reportingComponent\":\"x\"}"))).isEqualTo("x");
    assertThat(source.extract(json("{}"))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".a", "a.", "a..b"})
  void factories_rejectMalformedPaths(String path) {
    assertThatThrownBy(() -> FieldExtractor.string(path)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FieldExtractor.bool(path)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FieldExtractor.integer(path)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void extract_doesNotModifyObject() {
    JsonNode object = json("{\"spec\":{}}");
    JsonNode before = object.deepCopy();
    FieldExtractor.string("spec.a.b").extract(object);
    FieldExtractor.bool("spec.x").extract(object);
    assertThat(object).isEqualTo(before);
  }
}

package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FieldSelectorTest {

  private static final Map<String, String> POD = Map.of(
      "metadata.name", "web-1",
      "metadata.namespace", "default",
      "spec.nodeName", "node-a",
      "spec.hostNetwork", "false");

  // ---- everything ----

  @ParameterizedTest
  @ValueSource(strings = {"", ",", ",,,"})
  void parse_emptyOrOnlyCommas_isEverything(String selector) {
    FieldSelector s = FieldSelector.parse(selector);
    assertThat(s.isEverything()).isTrue();
    assertThat(s.matches(POD)).isTrue();
    assertThat(s.fields()).isEmpty();
    assertThat(s.toString()).isEmpty();
  }

  @Test
  void parse_null_isEverything() {
    assertThat(FieldSelector.parse(null)).isSameAs(FieldSelector.everything());
    assertThat(FieldSelector.everything().matches((Map<String, String>) null)).isTrue();
  }

  // ---- operators ----

  @Test
  void equals_andDoubleEquals_matchThatValue() {
    for (String op : new String[] {"=", "=="}) {
      FieldSelector s = FieldSelector.parse("metadata.name" + op + "web-1");
      assertThat(s.isEverything()).isFalse();
      assertThat(s.matches(POD)).isTrue();
      assertThat(s.matches(Map.of("metadata.name", "web-2"))).isFalse();
      assertThat(s.matches(Map.of())).isFalse();
    }
  }

  @Test
  void notEquals_matchesOtherValuesAndAbsentField() {
    FieldSelector s = FieldSelector.parse("spec.nodeName!=node-a");
    assertThat(s.matches(POD)).isFalse();
    assertThat(s.matches(Map.of("spec.nodeName", "node-b"))).isTrue();
    assertThat(s.matches(Map.of())).isTrue();
  }

  @Test
  void absentField_hasTheEmptyValue() {
    assertThat(FieldSelector.parse("spec.nodeName=").matches(Map.of())).isTrue();
    assertThat(FieldSelector.parse("spec.nodeName==").matches(Map.of("spec.nodeName", "")))
        .isTrue();
    assertThat(FieldSelector.parse("spec.nodeName!=").matches(Map.of())).isFalse();
    assertThat(FieldSelector.parse("spec.nodeName!=").matches(POD)).isTrue();
  }

  @Test
  void terms_areAnded() {
    FieldSelector s = FieldSelector.parse("metadata.namespace=default,spec.nodeName!=node-b,"
        + "spec.hostNetwork=false");
    assertThat(s.matches(POD)).isTrue();
    Map<String, String> other = new HashMap<>(POD);
    other.put("spec.hostNetwork", "true");
    assertThat(s.matches(other)).isFalse();
  }

  @Test
  void matches_withFunction_readsOnlyReferencedFields_andTakesNullAsEmpty() {
    List<String> asked = new ArrayList<>();
    Function<String, String> values = field -> {
      asked.add(field);
      return field.equals("metadata.name") ? "web-1" : null;
    };
    assertThat(FieldSelector.parse("metadata.name=web-1,status.phase=").matches(values)).isTrue();
    assertThat(asked).containsExactly("metadata.name", "status.phase");
    assertThat(FieldSelector.parse("status.phase!=").matches(values)).isFalse();
  }

  @Test
  void matches_stopsAtTheFirstFailingTerm() {
    List<String> asked = new ArrayList<>();
    Function<String, String> values = field -> {
      asked.add(field);
      return "x";
    };
    assertThat(FieldSelector.parse("a=y,b=x").matches(values)).isFalse();
    assertThat(asked).containsExactly("a");
  }

  // ---- escapes ----

  @Test
  void value_unescapesCommaEqualsAndBackslash() {
    assertThat(FieldSelector.parse("f=a\\,b").matches(Map.of("f", "a,b"))).isTrue();
    assertThat(FieldSelector.parse("f=a\\=b").matches(Map.of("f", "a=b"))).isTrue();
    assertThat(FieldSelector.parse("f=a\\\\b").matches(Map.of("f", "a\\b"))).isTrue();
    assertThat(FieldSelector.parse("f!=a\\,b").matches(Map.of("f", "a,b"))).isFalse();
  }

  @Test
  void escapedComma_doesNotSplitTerms() {
    FieldSelector s = FieldSelector.parse("f=a\\,g\\=b,h=c");
    assertThat(s.fields()).containsExactly("f", "h");
    assertThat(s.requiredValue("f")).contains("a,g=b");
    assertThat(s.requiredValue("h")).contains("c");
  }

  @Test
  void value_mayHoldCharactersThatAreNotSpecial() {
    FieldSelector s = FieldSelector.parse("f=a!b c/d:e");
    assertThat(s.matches(Map.of("f", "a!b c/d:e"))).isTrue();
  }

  @Test
  void fieldName_isTakenLiterally_withoutTrimming() {
    FieldSelector s = FieldSelector.parse(" metadata.name = web");
    assertThat(s.fields()).containsExactly(" metadata.name ");
    assertThat(s.requiredValue(" metadata.name ")).contains(" web");
  }

  @Test
  void term_splitsAtTheFirstOperator() {
    // "a!==b" is field "a", operator "!=", value "=b": an unescaped '='.
    assertThat(badRequest("a!==b").getMessage())
        .isEqualTo("invalid field selector: unescaped character in value: =");
    assertThat(FieldSelector.parse("a!=\\=b").matches(Map.of("a", "=b"))).isFalse();
    assertThat(FieldSelector.parse("=v").fields()).containsExactly("");
  }

  // ---- errors ----

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "metadata.name                   | invalid selector: 'metadata.name'; can't understand 'metadata.name'",
      "a=b,c                           | invalid selector: 'a=b,c'; can't understand 'c'",
      "a<b                             | invalid selector: 'a<b'; can't understand 'a<b'",
      "a=b=c                           | invalid field selector: unescaped character in value: =",
      "a=b\\x                          | invalid field selector: invalid escape sequence: \\x",
      "a=b\\                           | invalid field selector: invalid escape sequence: \\",
      "a in (b)                        | invalid selector: 'a in (b)'; can't understand 'a in (b)'",
  })
  void parse_rejectsMalformedSelectors_withKubesMessage(String selector, String message) {
    assertThat(badRequest(selector).getMessage()).isEqualTo(message);
  }

  // ---- fields, requiredValue ----

  @Test
  void fields_listsEachReferencedFieldOnce() {
    FieldSelector s = FieldSelector.parse("spec.nodeName!=a,metadata.name=x,spec.nodeName!=b");
    assertThat(s.fields()).containsExactly("metadata.name", "spec.nodeName");
  }

  @Test
  void requiredValue_isTheValueOfAnEqualsTerm() {
    FieldSelector s = FieldSelector.parse("metadata.namespace!=kube-system,metadata.name==web");
    assertThat(s.requiredValue("metadata.name")).contains("web");
    assertThat(s.requiredValue("metadata.namespace")).isEmpty();
    assertThat(s.requiredValue("spec.nodeName")).isEmpty();
    assertThat(FieldSelector.parse("f=").requiredValue("f")).contains("");
    assertThat(FieldSelector.parse("f=a\\,b").requiredValue("f")).contains("a,b");
  }

  // ---- canonical form ----

  @Test
  void toString_sortsTerms_printsDoubleEqualsAsEquals_andEscapesValues() {
    FieldSelector s = FieldSelector.parse("spec.nodeName==n\\,1,metadata.name!=a\\=b\\\\c");
    assertThat(s.toString()).isEqualTo("metadata.name!=a\\=b\\\\c,spec.nodeName=n\\,1");
  }

  @Test
  void toString_parsesBackToAnEqualSelector() {
    for (String text : new String[] {"b=1,a!=2", "a==x,a=b", "f=\\,\\=\\\\", "=,x!="}) {
      FieldSelector s = FieldSelector.parse(text);
      FieldSelector again = FieldSelector.parse(s.toString());
      assertThat(again).isEqualTo(s).hasSameHashCodeAs(s);
      assertThat(again.toString()).isEqualTo(s.toString());
    }
  }

  @Test
  void equals_ignoresTermOrderAndDoubleEquals() {
    assertThat(FieldSelector.parse("a=1,b!=2")).isEqualTo(FieldSelector.parse("b!=2,a==1"));
    assertThat(FieldSelector.parse("a=1")).isNotEqualTo(FieldSelector.parse("a!=1"));
  }

  @Test
  void escapeValue_isTheInverseOfParsing() {
    String raw = "a,b=c\\d";
    String escaped = FieldSelector.escapeValue(raw);
    assertThat(escaped).isEqualTo("a\\,b\\=c\\\\d");
    assertThat(FieldSelector.parse("f=" + escaped).requiredValue("f")).contains(raw);
  }

  // ---- unsupportedField ----

  @Test
  void unsupportedField_isKubesBadRequest_listingTheSupportedFields() {
    StatusException e = FieldSelector.unsupportedField("foo.bar",
        List.of("metadata.name", "metadata.namespace"));
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(Reasons.BAD_REQUEST);
    assertThat(e.getMessage()).isEqualTo(
        "\"foo.bar\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  }

  @Test
  void unsupportedField_quotesLikeGo() {
    assertThat(FieldSelector.unsupportedField("a\"b\\c\n", List.of("x")).getMessage())
        .isEqualTo("\"a\\\"b\\\\c\\n\" is not a known field selector: only \"x\"");
    assertThat(FieldSelector.unsupportedField("x", List.of()).getMessage())
        .isEqualTo("\"x\" is not a known field selector");
  }

  private static StatusException badRequest(String selector) {
    StatusException e =
        catchThrowableOfType(StatusException.class, () -> FieldSelector.parse(selector));
    assertThat(e).as("parse(%s) should fail", selector).isNotNull();
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(Reasons.BAD_REQUEST);
    return e;
  }
}

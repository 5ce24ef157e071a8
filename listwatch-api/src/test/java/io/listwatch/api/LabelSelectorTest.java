package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LabelSelectorTest {

  private static final Map<String, String> WEB = Map.of("app", "web", "tier", "front");

  // ---- everything ----

  @Test
  void parse_nullEmptyOrBlank_isEverything() {
    assertThat(LabelSelector.parse(null).isEverything()).isTrue();
    assertThat(LabelSelector.parse("").isEverything()).isTrue();
    assertThat(LabelSelector.parse(" \t\r\n").isEverything()).isTrue();
    assertThat(LabelSelector.parse("")).isSameAs(LabelSelector.everything());
  }

  @Test
  void everything_matchesAnyLabelsIncludingNone() {
    LabelSelector s = LabelSelector.everything();
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of())).isTrue();
    assertThat(s.matches(null)).isTrue();
    assertThat(s.toString()).isEmpty();
  }

  @Test
  void isEverything_isFalse_forAnyRequirement() {
    assertThat(LabelSelector.parse("app").isEverything()).isFalse();
  }

  // ---- operators ----

  @Test
  void equals_matchesOnlyThatValue() {
    LabelSelector s = LabelSelector.parse("app=web");
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of("app", "db"))).isFalse();
    assertThat(s.matches(Map.of())).isFalse();
    assertThat(s.matches(null)).isFalse();
  }

  @Test
  void doubleEquals_isEquals() {
    LabelSelector s = LabelSelector.parse("app==web");
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of("app", "db"))).isFalse();
    assertThat(s.matches(Map.of())).isFalse();
  }

  @Test
  void notEquals_matchesOtherValuesAndAbsentKey() {
    LabelSelector s = LabelSelector.parse("app!=web");
    assertThat(s.matches(WEB)).isFalse();
    assertThat(s.matches(Map.of("app", "db"))).isTrue();
    assertThat(s.matches(Map.of())).isTrue();
  }

  @Test
  void in_matchesAnyListedValue_butNotAbsentKey() {
    LabelSelector s = LabelSelector.parse("app in (web,db)");
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of("app", "db"))).isTrue();
    assertThat(s.matches(Map.of("app", "cache"))).isFalse();
    assertThat(s.matches(Map.of())).isFalse();
  }

  @Test
  void notIn_matchesUnlistedValuesAndAbsentKey() {
    LabelSelector s = LabelSelector.parse("app notin (web,db)");
    assertThat(s.matches(WEB)).isFalse();
    assertThat(s.matches(Map.of("app", "db"))).isFalse();
    assertThat(s.matches(Map.of("app", "cache"))).isTrue();
    assertThat(s.matches(Map.of())).isTrue();
  }

  @Test
  void exists_matchesAnyValueIncludingEmpty() {
    LabelSelector s = LabelSelector.parse("app");
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of("app", ""))).isTrue();
    assertThat(s.matches(Map.of("tier", "front"))).isFalse();
  }

  @Test
  void doesNotExist_matchesOnlyAbsentKey() {
    LabelSelector s = LabelSelector.parse("!app");
    assertThat(s.matches(WEB)).isFalse();
    assertThat(s.matches(Map.of("app", ""))).isFalse();
    assertThat(s.matches(Map.of("tier", "front"))).isTrue();
  }

  @Test
  void greaterThan_comparesIntegers() {
    LabelSelector s = LabelSelector.parse("replicas>5");
    assertThat(s.matches(Map.of("replicas", "6"))).isTrue();
    assertThat(s.matches(Map.of("replicas", "10"))).isTrue(); // numeric, not lexical
    assertThat(s.matches(Map.of("replicas", "5"))).isFalse();
    assertThat(s.matches(Map.of("replicas", "-7"))).isFalse();
  }

  @Test
  void lessThan_comparesIntegers() {
    LabelSelector s = LabelSelector.parse("replicas<5");
    assertThat(s.matches(Map.of("replicas", "4"))).isTrue();
    assertThat(s.matches(Map.of("replicas", "-7"))).isTrue();
    assertThat(s.matches(Map.of("replicas", "5"))).isFalse();
    assertThat(s.matches(Map.of("replicas", "10"))).isFalse();
  }

  @Test
  void comparison_doesNotMatchAbsentKeyOrNonIntegerValue() {
    assertThat(LabelSelector.parse("replicas>5").matches(Map.of())).isFalse();
    assertThat(LabelSelector.parse("replicas<5").matches(Map.of())).isFalse();
    assertThat(LabelSelector.parse("replicas>5").matches(Map.of("replicas", "many"))).isFalse();
    assertThat(LabelSelector.parse("replicas<5").matches(Map.of("replicas", "many"))).isFalse();
  }

  @Test
  void requirements_areAnded() {
    LabelSelector s = LabelSelector.parse("app=web,tier in (front,back),!canary");
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of("app", "web", "tier", "middle"))).isFalse();
    Map<String, String> canary = new HashMap<>(WEB);
    canary.put("canary", "true");
    assertThat(s.matches(canary)).isFalse();
  }

  // ---- lexical details ----

  @Test
  void parse_allowsWhitespaceAroundOperatorsCommasAndInsideParentheses() {
    LabelSelector s = LabelSelector.parse(
        "  app = web ,\ttier  in  ( front ,  back ) , env != prod,\n ! canary , n >  3 ");
    assertThat(s).isEqualTo(
        LabelSelector.parse("app=web,tier in (front,back),env!=prod,!canary,n>3"));
  }

  @Test
  void parse_needsNoWhitespaceAroundParentheses() {
    assertThat(LabelSelector.parse("app in(web,db)"))
        .isEqualTo(LabelSelector.parse("app in (web,db)"));
  }

  @Test
  void parse_treatsInAndNotinAsIdentifiers_whereKeysAndValuesGo() {
    LabelSelector s = LabelSelector.parse("in in (in,notin),notin=in");
    assertThat(s.matches(Map.of("in", "notin", "notin", "in"))).isTrue();
    assertThat(s.matches(Map.of("in", "x", "notin", "in"))).isFalse();
  }

  @Test
  void equals_withNoValue_requiresEmptyValue() {
    LabelSelector s = LabelSelector.parse("app=");
    assertThat(s.matches(Map.of("app", ""))).isTrue();
    assertThat(s.matches(Map.of("app", "web"))).isFalse();
    assertThat(s.matches(Map.of())).isFalse();
    assertThat(LabelSelector.parse("app=,tier").toString()).isEqualTo("app=,tier");
  }

  @Test
  void in_withEmptyParentheses_meansTheEmptyValue() {
    LabelSelector s = LabelSelector.parse("app in ()");
    assertThat(s.matches(Map.of("app", ""))).isTrue();
    assertThat(s.matches(Map.of("app", "web"))).isFalse();
  }

  @Test
  void in_withEmptyEntries_includesTheEmptyValue() {
    assertThat(LabelSelector.parse("x in (a,,b)").toString()).isEqualTo("x in (,a,b)");
    assertThat(LabelSelector.parse("x in (,a)").toString()).isEqualTo("x in (,a)");
    assertThat(LabelSelector.parse("x in (a,)").toString()).isEqualTo("x in (,a)");
    assertThat(LabelSelector.parse("x in (,)").toString()).isEqualTo("x in ()");
    assertThat(LabelSelector.parse("x in (a,,b)").matches(Map.of("x", ""))).isTrue();
  }

  @Test
  void in_foldsDuplicateValues() {
    assertThat(LabelSelector.parse("x in (b,a,b,a)").toString()).isEqualTo("x in (a,b)");
  }

  // ---- keys and values ----

  @Test
  void parse_acceptsPrefixedKeys() {
    LabelSelector s = LabelSelector.parse("app.kubernetes.io/name=web");
    assertThat(s.matches(Map.of("app.kubernetes.io/name", "web"))).isTrue();
  }

  @Test
  void parse_acceptsKeyNameOf63Chars_andValueOf63Chars() {
    String name = "a" + "-".repeat(61) + "z";
    String value = "V" + "_.".repeat(30) + "9" + "x";
    assertThat(name).hasSize(63);
    assertThat(value).hasSize(63);
    LabelSelector s = LabelSelector.parse(name + "=" + value);
    assertThat(s.matches(Map.of(name, value))).isTrue();
  }

  @Test
  void parse_rejectsKeyNameOver63Chars() {
    String name = "a".repeat(64);
    assertThat(badRequest(name).getMessage()).isEqualTo(
        "unable to parse requirement: key: Invalid value: \"" + name
            + "\": name part must be no more than 63 characters");
  }

  @Test
  void parse_rejectsValueOver63Chars() {
    String value = "v".repeat(64);
    assertThat(badRequest("app=" + value).getMessage()).isEqualTo(
        "unable to parse requirement: values[0][app]: Invalid value: \"" + value
            + "\": must be no more than 63 characters");
  }

  @Test
  void parse_countsValueLengthInUtf8Bytes_likeKube() {
    String value = "\u00e9".repeat(32); // 32 characters, 64 bytes
    assertThat(badRequest("app=" + value).getMessage()).contains("must be no more than 63 characters");
  }

  @Test
  void parse_acceptsPrefixOf253Chars_andRejectsLonger() {
    String label = "a".repeat(63);
    String prefix253 = String.join(".", label, label, label, "a".repeat(61));
    assertThat(prefix253).hasSize(253);
    assertThat(LabelSelector.parse(prefix253 + "/name").matches(Map.of(prefix253 + "/name", "")))
        .isTrue();
    String prefix254 = prefix253 + "b";
    assertThat(badRequest(prefix254 + "/name").getMessage())
        .contains("prefix part must be no more than 253 characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Example.com/name", "-a.com/name", "a_b.com/name", "a..b/name"})
  void parse_rejectsPrefixThatIsNotADns1123Subdomain(String key) {
    assertThat(badRequest(key).getMessage())
        .startsWith("unable to parse requirement: key: Invalid value: ")
        .contains("prefix part a lowercase RFC 1123 subdomain must consist of lower case");
  }

  @Test
  void parse_rejectsEmptyPrefixOrName() {
    assertThat(badRequest("/name").getMessage()).contains("prefix part must be non-empty");
    assertThat(badRequest("example.com/").getMessage()).contains("name part must be non-empty");
  }

  @Test
  void parse_rejectsKeyWithTwoSlashes() {
    // Word for word kube's message, double spaces before "or" included.
    assertThat(badRequest("a/b/c").getMessage()).isEqualTo(
        "unable to parse requirement: key: Invalid value: \"a/b/c\": a qualified name must "
            + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
            + "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
            + "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional "
            + "DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-app", "app-", "_app", "a@b", "ä", "app.", "!-x"})
  void parse_rejectsKeysOutsideTheNameCharset(String selector) {
    assertThat(badRequest(selector).getMessage())
        .startsWith("unable to parse requirement: key: Invalid value: ")
        .contains("name part must consist of alphanumeric characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"app=-web", "app=web-", "app=we@b", "app in (ok,-bad)", "app!=é"})
  void parse_rejectsValuesOutsideTheCharset(String selector) {
    assertThat(badRequest(selector).getMessage())
        .startsWith("unable to parse requirement: values[")
        .contains("a valid label must be an empty string or consist of alphanumeric");
  }

  @Test
  void parse_namesTheSortedIndexOfABadSetValue() {
    assertThat(badRequest("app in (b,-a)").getMessage())
        .startsWith("unable to parse requirement: values[0][app]: Invalid value: \"-a\"");
  }

  @Test
  void parse_rejectsNonIntegerComparisonBound() {
    assertThat(badRequest("n>five").getMessage()).isEqualTo(
        "unable to parse requirement: values[0]: Invalid value: \"five\": "
            + "for 'Gt', 'Lt' operators, the value must be an integer");
  }

  @Test
  void parse_reportsEveryProblemOfARequirement_inBrackets() {
    assertThat(badRequest("n<-a").getMessage())
        .startsWith("unable to parse requirement: [values[0]: Invalid value: \"-a\": "
            + "for 'Gt', 'Lt' operators, the value must be an integer, values[0][n]: "
            + "Invalid value: \"-a\": a valid label must be")
        .endsWith("]");
  }

  @Test
  void parse_rejectsNegativeComparisonBound_asKubeDoes() {
    // "-1" is an integer but not a valid label value, and kube checks both.
    assertThat(badRequest("n>-1").getMessage())
        .startsWith("unable to parse requirement: values[0][n]: Invalid value: \"-1\"");
  }

  // ---- syntax errors ----

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "x in (a          | unable to parse requirement: found '', expected: ',' or ')'",
      "x in (a b)       | unable to parse requirement: found 'b', expected: ',' or ')'",
      "x in a           | unable to parse requirement: found 'a' expected: '('",
      "x in (=)         | unable to parse requirement: found '=', expected: ',', ')' or identifier",
      "x in (a,=)       | unable to parse requirement: found '=', expected: ',', or identifier",
      "x (a)            | unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt",
      "x=(a)            | unable to parse requirement: found '(', expected: identifier",
      "x=!y             | unable to parse requirement: found '!', expected: identifier",
      "!=x              | found '!=', expected: !, identifier, or 'end of string'",
      "!!x              | unable to parse requirement: found '!', expected: identifier",
      "x y              | unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt",
      "x=a y            | found 'y', expected: ',' or 'end of string'",
      "x=y=z            | found '=', expected: ',' or 'end of string'",
      "!x=y             | found '=', expected: ',' or 'end of string'",
      "x=a,             | found '', expected: identifier after ','",
      "x=a,,y           | found ',', expected: identifier after ','",
      ",x               | found ',', expected: !, identifier, or 'end of string'",
      "(x)              | found '(', expected: !, identifier, or 'end of string'",
  })
  void parse_rejectsMalformedSelectors_withKubesMessage(String selector, String message) {
    assertThat(badRequest(selector.strip()).getMessage()).isEqualTo(message);
  }

  @Test
  void parseErrors_areBadRequestStatuses() {
    StatusException e = badRequest("x in (");
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(Reasons.BAD_REQUEST);
    assertThat(e.status().kind()).isEqualTo("Status");
    assertThat(e.status().status()).isEqualTo(Status.FAILURE);
  }

  // ---- canonical form, equality ----

  @Test
  void toString_sortsRequirementsByKey_andSetValues() {
    LabelSelector s = LabelSelector.parse("tier notin (b, a),!canary,app==web,n<3,env!=prod,"
        + "zone in (z,y),owner,m>1");
    assertThat(s.toString())
        .isEqualTo("app==web,!canary,env!=prod,m>1,n<3,owner,tier notin (a,b),zone in (y,z)");
  }

  @Test
  void toString_parsesBackToAnEqualSelector() {
    for (String text : new String[] {"a in (,x,y),!b,c=,d==e,f!=g,h>1,i<0,j",
        "example.com/k in (in,notin)"}) {
      LabelSelector s = LabelSelector.parse(text);
      assertThat(LabelSelector.parse(s.toString())).isEqualTo(s);
      assertThat(LabelSelector.parse(s.toString()).toString()).isEqualTo(s.toString());
    }
  }

  @Test
  void equals_ignoresRequirementOrderWhitespaceAndValueOrder() {
    LabelSelector a = LabelSelector.parse("app=web, tier in (b,a)");
    LabelSelector b = LabelSelector.parse("tier in (a,b),app=web");
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(LabelSelector.parse("app=web"));
  }

  @Test
  void sameKeyTwice_keepsBothRequirements() {
    LabelSelector s = LabelSelector.parse("app!=db,app");
    assertThat(s.matches(WEB)).isTrue();
    assertThat(s.matches(Map.of())).isFalse();
    assertThat(s.matches(Map.of("app", "db"))).isFalse();
  }

  // ---- requiredValue ----

  @Test
  void requiredValue_isTheValueOfEqualsDoubleEqualsOrSingleIn() {
    assertThat(LabelSelector.parse("app=web").requiredValue("app")).contains("web");
    assertThat(LabelSelector.parse("app==web").requiredValue("app")).contains("web");
    assertThat(LabelSelector.parse("app in (web)").requiredValue("app")).contains("web");
    assertThat(LabelSelector.parse("app=").requiredValue("app")).contains("");
    assertThat(LabelSelector.parse("app,app=web").requiredValue("app")).contains("web");
  }

  @Test
  void requiredValue_isEmpty_whenTheKeyIsNotPinnedToOneValue() {
    assertThat(LabelSelector.parse("app in (web,db)").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.parse("app!=web").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.parse("app notin (web)").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.parse("app").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.parse("!app").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.parse("app>1").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.parse("tier=front").requiredValue("app")).isEmpty();
    assertThat(LabelSelector.everything().requiredValue("app")).isEmpty();
  }

  private static StatusException badRequest(String selector) {
    StatusException e =
        catchThrowableOfType(StatusException.class, () -> LabelSelector.parse(selector));
    assertThat(e).as("parse(%s) should fail", selector).isNotNull();
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(Reasons.BAD_REQUEST);
    return e;
  }
}

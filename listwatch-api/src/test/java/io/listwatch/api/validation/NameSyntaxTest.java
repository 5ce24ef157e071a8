package io.listwatch.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NameSyntaxTest {

  static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
      + "(e.g. 'example.com', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
      + "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  static final String DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric "
      + "characters or '-', start with an alphabetic character, and end with an alphanumeric "
      + "character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
      + "'[a-z]([-a-z0-9]*[a-z0-9])?')";
  static final String QNAME_MSG = "name part must consist of alphanumeric characters, '-', '_' or "
      + "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "
      + "or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of "
      + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      + "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
      + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

  @ParameterizedTest
  @ValueSource(strings = {"a", "0", "example.com", "a-b.c-d", "a.b.c", "123", "a--b"})
  void isDns1123Subdomain_acceptsValid(String s) {
    assertThat(NameSyntax.isDns1123Subdomain(s)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Foo", "-a", "a-", ".a", "a.", "a..b", "a_b", "a b", "a.-b", "é"})
  void isDns1123Subdomain_rejectsInvalid_withKubeMessage(String s) {
    assertThat(NameSyntax.isDns1123Subdomain(s)).containsExactly(SUBDOMAIN_MSG);
  }

  @Test
  void isDns1123Subdomain_acceptsExactly253_rejects254WithLengthMessage() {
    String label = "a".repeat(63);
    String s253 = label + "." + label + "." + label + "." + "a".repeat(61);
    assertThat(s253).hasSize(253);
    assertThat(NameSyntax.isDns1123Subdomain(s253)).isEmpty();
    assertThat(NameSyntax.isDns1123Subdomain(s253 + "a"))
        .containsExactly("must be no more than 253 characters");
  }

  @Test
  void isDns1123Subdomain_tooLongAndMalformed_givesBothMessages() {
    assertThat(NameSyntax.isDns1123Subdomain("A".repeat(300)))
        .containsExactly("must be no more than 253 characters", SUBDOMAIN_MSG);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "my-name", "123-abc", "0"})
  void isDns1123Label_acceptsValid(String s) {
    assertThat(NameSyntax.isDns1123Label(s)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Default", "-a", "a-", "a_b"})
  void isDns1123Label_rejectsInvalid_withKubeMessage(String s) {
    assertThat(NameSyntax.isDns1123Label(s)).containsExactly(LABEL_MSG);
  }

  @Test
  void isDns1123Label_validSubdomainWithDots_saysMustNotContainDots() {
    assertThat(NameSyntax.isDns1123Label("a.b")).containsExactly("must not contain dots");
  }

  @Test
  void isDns1123Label_limitIs63() {
    assertThat(NameSyntax.isDns1123Label("a".repeat(63))).isEmpty();
    assertThat(NameSyntax.isDns1123Label("a".repeat(64))).containsExactly("must be no more than 63 characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "my-name", "abc-123", "a1"})
  void isDns1035Label_acceptsValid(String s) {
    assertThat(NameSyntax.isDns1035Label(s)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1abc", "-a", "a-", "A", "a.b"})
  void isDns1035Label_rejectsInvalid_withKubeMessage(String s) {
    assertThat(NameSyntax.isDns1035Label(s)).containsExactly(DNS1035_MSG);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "MyName", "my.name", "123-abc", "a_b", "example.com/MyName",
      "app.kubernetes.io/name", "k8s.io/x"})
  void isQualifiedName_acceptsValid(String s) {
    assertThat(NameSyntax.isQualifiedName(s)).isEmpty();
  }

  @Test
  void isQualifiedName_rejectsBadNamePart() {
    assertThat(NameSyntax.isQualifiedName("bad key")).containsExactly(QNAME_MSG);
    assertThat(NameSyntax.isQualifiedName("-a")).containsExactly(QNAME_MSG);
  }

  @Test
  void isQualifiedName_rejectsEmptyParts() {
    assertThat(NameSyntax.isQualifiedName("")).containsExactly("name part must be non-empty", QNAME_MSG);
    assertThat(NameSyntax.isQualifiedName("/a")).containsExactly("prefix part must be non-empty");
    assertThat(NameSyntax.isQualifiedName("a.com/"))
        .containsExactly("name part must be non-empty", QNAME_MSG);
  }

  @Test
  void isQualifiedName_rejectsBadPrefix_withPrefixedSubdomainMessage() {
    assertThat(NameSyntax.isQualifiedName("Example.com/x")).containsExactly("prefix part " + SUBDOMAIN_MSG);
  }

  @Test
  void isQualifiedName_rejectsTwoSlashes() {
    assertThat(NameSyntax.isQualifiedName("a/b/c")).containsExactly("a qualified name must consist of "
        + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and "
        + "'/' (e.g. 'example.com/MyName')");
  }

  @Test
  void isQualifiedName_nameLimitIs63() {
    assertThat(NameSyntax.isQualifiedName("a".repeat(63))).isEmpty();
    assertThat(NameSyntax.isQualifiedName("p.io/" + "a".repeat(64)))
        .containsExactly("name part must be no more than 63 characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "MyValue", "my_value", "12345", "a.b-c_d"})
  void isValidLabelValue_acceptsValid(String s) {
    assertThat(NameSyntax.isValidLabelValue(s)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"-a", "a-", "a b", "a/b", "é"})
  void isValidLabelValue_rejectsInvalid_withKubeMessage(String s) {
    assertThat(NameSyntax.isValidLabelValue(s)).containsExactly(LABEL_VALUE_MSG);
  }

  @Test
  void isValidLabelValue_limitIs63() {
    assertThat(NameSyntax.isValidLabelValue("a".repeat(63))).isEmpty();
    assertThat(NameSyntax.isValidLabelValue("a".repeat(64))).containsExactly("must be no more than 63 characters");
  }

  @Test
  void isValidPathSegmentName_rejectsDotsSlashAndPercent() {
    assertThat(NameSyntax.isValidPathSegmentName(".")).containsExactly("may not be '.'");
    assertThat(NameSyntax.isValidPathSegmentName("..")).containsExactly("may not be '..'");
    assertThat(NameSyntax.isValidPathSegmentName("a/b%c"))
        .containsExactly("may not contain '/'", "may not contain '%'");
    assertThat(NameSyntax.isValidPathSegmentName("Any Thing.at_all")).isEmpty();
    assertThat(NameSyntax.isValidPathSegmentName("...")).isEmpty();
  }

  @Test
  void isValidPathSegmentPrefix_allowsDots() {
    assertThat(NameSyntax.isValidPathSegmentPrefix(".")).isEmpty();
    assertThat(NameSyntax.isValidPathSegmentPrefix("a/")).containsExactly("may not contain '/'");
  }

  @Test
  void byteLength_countsUtf8Bytes() {
    assertThat(NameSyntax.byteLength("abc")).isEqualTo(3);
    assertThat(NameSyntax.byteLength("é")).isEqualTo(2);
    assertThat(NameSyntax.byteLength("€")).isEqualTo(3);
    assertThat(NameSyntax.byteLength("😀")).isEqualTo(4);
    assertThat(NameSyntax.byteLength("\ud800")).isEqualTo(3);
  }

  @Test
  void lengthLimits_countBytes_likeGo() {
    // 32 two-byte characters: 32 chars but 64 bytes.
    assertThat(NameSyntax.isValidLabelValue("é".repeat(32))).contains("must be no more than 63 characters");
  }

  @Test
  void handWrittenMatchers_agreeWithKubesRegexes_onRandomStrings() {
    Pattern label = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    Pattern subdomain = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    Pattern dns1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    Pattern qname = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    String alphabet = "a1Z-._/ %";
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 200_000; i++) {
      int len = random.nextInt(7);
      StringBuilder b = new StringBuilder(len);
      for (int j = 0; j < len; j++) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = b.toString();
      assertThat(NameSyntax.matchesDns1123Label(s)).as(s).isEqualTo(label.matcher(s).matches());
      assertThat(NameSyntax.matchesDns1123Subdomain(s)).as(s).isEqualTo(subdomain.matcher(s).matches());
      assertThat(NameSyntax.matchesDns1035Label(s)).as(s).isEqualTo(dns1035.matcher(s).matches());
      assertThat(NameSyntax.matchesQualifiedName(s)).as(s).isEqualTo(qname.matcher(s).matches());
    }
  }

  @Test
  void matchers_handleHugeInputs_withoutStackOverflow() {
    String manyLabels = "a.".repeat(500_000) + "a";
    assertThat(NameSyntax.isDns1123Subdomain(manyLabels)).containsExactly("must be no more than 253 characters");
  }
}

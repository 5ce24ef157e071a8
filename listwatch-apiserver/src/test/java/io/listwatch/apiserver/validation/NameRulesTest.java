package io.listwatch.apiserver.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.registry.NameValidation;
import org.junit.jupiter.api.Test;

class NameRulesTest {

  // kube's exact messages, as the server's 422 causes carry them.
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

  @Test
  void validateName_prefixAllowsTrailingDash() {
    assertThat(NameRules.validateName(NameValidation.DNS1123_SUBDOMAIN, "web-", true)).isEmpty();
    assertThat(NameRules.validateName(NameValidation.DNS1123_SUBDOMAIN, "web-", false))
        .containsExactly(SUBDOMAIN_MSG);
    assertThat(NameRules.validateName(NameValidation.DNS1123_LABEL, "ns-", true)).isEmpty();
    assertThat(NameRules.validateName(NameValidation.DNS1035_LABEL, "svc-", true)).isEmpty();
    assertThat(NameRules.validateName(NameValidation.DNS1035_LABEL, "1svc-", true)).containsExactly(DNS1035_MSG);
  }

  @Test
  void validateName_pathSegment_usesPrefixRuleForGenerateName() {
    assertThat(NameRules.validateName(NameValidation.PATH_SEGMENT, ".", true)).isEmpty();
    assertThat(NameRules.validateName(NameValidation.PATH_SEGMENT, ".", false)).containsExactly("may not be '.'");
  }

  @Test
  void maskTrailingDash_reproducesKubesTwoCharacterCut() {
    assertThat(NameRules.maskTrailingDash("web-")).isEqualTo("wea");
    assertThat(NameRules.maskTrailingDash("a-")).isEqualTo("a");
    assertThat(NameRules.maskTrailingDash("-")).isEqualTo("-");
    assertThat(NameRules.maskTrailingDash("abc")).isEqualTo("abc");
  }
}

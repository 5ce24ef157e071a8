package io.listwatch.api;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * apimachinery's {@code util/validation} rules for label keys and values, with kube's
 * messages: {@code IsQualifiedName}, {@code IsValidLabelValue} and
 * {@code IsDNS1123Subdomain}. Each returns the list of problems, empty when the input is
 * valid.
 *
 * <p>Stateless; thread-safe.
 */
final class LabelSyntax {

  static final int QUALIFIED_NAME_MAX_LENGTH = 63;
  static final int LABEL_VALUE_MAX_LENGTH = 63;
  static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', "
      + "'_' or '.', and must start and end with an alphanumeric character";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);

  private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
  private static final String LABEL_VALUE_ERR = "a valid label must be an empty string or consist "
      + "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      + "character";
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);

  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist "
      + "of lower case alphanumeric characters, '-' or '.', and must start and end with an "
      + "alphanumeric character";
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);

  private LabelSyntax() {
  }

  /** {@code IsQualifiedName}: a label key, {@code [prefix/]name}. */
  static List<String> qualifiedNameErrors(String value) {
    List<String> errs = new ArrayList<>();
    String name;
    int slash = value.indexOf('/');
    if (slash < 0) {
      name = value;
    } else if (value.indexOf('/', slash + 1) < 0) {
      String prefix = value.substring(0, slash);
      name = value.substring(slash + 1);
      if (prefix.isEmpty()) {
        errs.add("prefix part must be non-empty");
      } else {
        for (String msg : dns1123SubdomainErrors(prefix)) {
          errs.add("prefix part " + msg);
        }
      }
    } else {
      errs.add("a qualified name " + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT,
          "MyName", "my.name", "123-abc")
          + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (name.length() > QUALIFIED_NAME_MAX_LENGTH) {
      errs.add("name part " + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add("name part " + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT,
          "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /** {@code IsValidLabelValue}: empty, or at most 63 characters of the qualified-name set. */
  static List<String> labelValueErrors(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > LABEL_VALUE_MAX_LENGTH) {
      errs.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errs.add(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return errs;
  }

  /** {@code IsDNS1123Subdomain}: at most 253 characters of dot-separated DNS labels. */
  static List<String> dns1123SubdomainErrors(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      errs.add(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  private static String maxLenError(int length) {
    return "must be no more than " + length + " characters";
  }

  /** Go's {@code RegexError}, including its double space before each "or". */
  private static String regexError(String msg, String fmt, String... examples) {
    StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        sb.append(" or ");
      }
      sb.append('\'').append(examples[i]).append("', ");
    }
    return sb.append("regex used for validation is '").append(fmt).append("')").toString();
  }
}

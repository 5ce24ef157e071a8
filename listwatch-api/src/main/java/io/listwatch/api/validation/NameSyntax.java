package io.listwatch.api.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's string syntax rules (apimachinery {@code util/validation} and
 * {@code api/validation/path}), each returning kube's own messages: an empty list means valid.
 * The server puts the messages in the {@code causes} of a 422 Invalid, after
 * {@code Invalid value: "<value>": }; the label selector parser puts them in a 400. The
 * server's validation and the label selector parser both use these rules,
 * so they accept and refuse the same strings with the same words.
 *
 * <p>Lengths are counted in UTF-8 bytes, as Go's {@code len} counts them. The patterns are
 * matched by hand-written scanners equivalent to kube's regular expressions (quoted in the
 * messages): they run in linear time without recursion, whatever the input's length.
 * Stateless and thread-safe; each method returns a fresh list.
 */
public final class NameSyntax {

  /** A DNS-1123 label's longest length. */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;
  /** A DNS-1123 subdomain's longest length. */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
  /** A DNS-1035 label's longest length. */
  public static final int DNS1035_LABEL_MAX_LENGTH = 63;
  /** The longest name part of a qualified name. */
  public static final int QUALIFIED_NAME_MAX_LENGTH = 63;
  /** A label value's longest length. */
  public static final int LABEL_VALUE_MAX_LENGTH = 63;

  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_LABEL_ERR = "a lowercase RFC 1123 label must consist of lower "
      + "case alphanumeric characters or '-', and must start and end with an alphanumeric character";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist "
      + "of lower case alphanumeric characters, '-' or '.', and must start and end with an "
      + "alphanumeric character";
  private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1035_LABEL_ERR = "a DNS-1035 label must consist of lower case "
      + "alphanumeric characters or '-', start with an alphabetic character, and end with an "
      + "alphanumeric character";
  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', "
      + "'_' or '.', and must start and end with an alphanumeric character";
  private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
  private static final String LABEL_VALUE_ERR = "a valid label must be an empty string or consist "
      + "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      + "character";

  private NameSyntax() {
  }

  /** kube's {@code IsDNS1123Subdomain}: at most 253 bytes, e.g. {@code example.com}. */
  public static List<String> isDns1123Subdomain(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if (!matchesDns1123Subdomain(value)) {
      errs.add(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  /**
   * kube's {@code IsDNS1123Label}: at most 63 bytes, e.g. {@code my-name}. A valid subdomain
   * that is not a label gets kube's shorter {@code must not contain dots}.
   */
  public static List<String> isDns1123Label(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) {
      errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
    }
    if (!matchesDns1123Label(value)) {
      if (matchesDns1123Subdomain(value)) {
        errs.add("must not contain dots");
      } else {
        errs.add(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"));
      }
    }
    return errs;
  }

  /** kube's {@code IsDNS1035Label}: like a DNS-1123 label but starting with a letter. */
  public static List<String> isDns1035Label(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) {
      errs.add(maxLenError(DNS1035_LABEL_MAX_LENGTH));
    }
    if (!matchesDns1035Label(value)) {
      errs.add(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, "my-name", "abc-123"));
    }
    return errs;
  }

  /**
   * kube's {@code IsQualifiedName}, the rule for label keys, annotation keys and finalizers:
   * an optional DNS-1123 subdomain prefix and {@code '/'}, then a name of at most 63 bytes.
   */
  public static List<String> isQualifiedName(String value) {
    List<String> errs = new ArrayList<>(2);
    String[] parts = value.split("/", -1);
    String name;
    switch (parts.length) {
      case 1 -> name = parts[0];
      case 2 -> {
        String prefix = parts[0];
        name = parts[1];
        if (prefix.isEmpty()) {
          errs.add("prefix part must be non-empty");
        } else {
          for (String msg : isDns1123Subdomain(prefix)) {
            errs.add("prefix part " + msg);
          }
        }
      }
      default -> {
        errs.add("a qualified name "
            + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
        return errs;
      }
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) {
      errs.add("name part " + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
    }
    if (!matchesQualifiedName(name)) {
      errs.add("name part "
          + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /** kube's {@code IsValidLabelValue}: empty, or at most 63 bytes of qualified-name characters. */
  public static List<String> isValidLabelValue(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) {
      errs.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
    }
    if (!(value.isEmpty() || matchesQualifiedName(value))) {
      errs.add(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return errs;
  }

  private static final java.util.regex.Pattern PORT_NAME_CHARS = java.util.regex.Pattern.compile("[-a-z0-9]+");
  private static final java.util.regex.Pattern PORT_NAME_LETTER = java.util.regex.Pattern.compile("[a-z]");

  /** kube's {@code IsValidPortNum}: 1 to 65535. */
  public static List<String> isValidPortNum(long port) {
    return port >= 1 && port <= 65535 ? new ArrayList<>() : new ArrayList<>(List.of("must be between 1 and 65535, inclusive"));
  }

  /**
   * kube's {@code IsValidPortName} (an IANA service name, RFC 6335): at most 15 characters of
   * {@code [-a-z0-9]}, at least one letter, no {@code --}, no hyphen first or last.
   */
  public static List<String> isValidPortName(String port) {
    List<String> errs = new ArrayList<>(2);
    if (port.length() > 15) {
      errs.add(maxLenError(15));
    }
    if (!PORT_NAME_CHARS.matcher(port).matches()) {
      errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if (!PORT_NAME_LETTER.matcher(port).find()) {
      errs.add("must contain at least one letter (a-z)");
    }
    if (port.contains("--")) {
      errs.add("must not contain consecutive hyphens");
    }
    if (!port.isEmpty() && (port.startsWith("-") || port.endsWith("-"))) {
      errs.add("must not begin or end with a hyphen");
    }
    return errs;
  }

  /**
   * kube's {@code IsValidPathSegmentName}: a name that can be one URL path segment. It may not
   * be {@code "."} or {@code ".."}, and may not contain {@code '/'} or {@code '%'}.
   */
  public static List<String> isValidPathSegmentName(String name) {
    if (name.equals(".") || name.equals("..")) {
      return new ArrayList<>(List.of("may not be '" + name + "'"));
    }
    return isValidPathSegmentPrefix(name);
  }

  /**
   * kube's {@code IsValidPathSegmentPrefix}, for a {@code generateName}: may not contain
   * {@code '/'} or {@code '%'}.
   */
  public static List<String> isValidPathSegmentPrefix(String prefix) {
    List<String> errs = new ArrayList<>(2);
    if (prefix.contains("/")) {
      errs.add("may not contain '/'");
    }
    if (prefix.contains("%")) {
      errs.add("may not contain '%'");
    }
    return errs;
  }

  /** Whether {@code s} matches {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}. */
  static boolean matchesDns1123Label(String s) {
    return matchesLabel(s, 0, s.length(), false);
  }

  /** Whether {@code s} matches DNS-1123 labels joined by single dots. */
  static boolean matchesDns1123Subdomain(String s) {
    int start = 0;
    while (true) {
      int dot = s.indexOf('.', start);
      int end = dot < 0 ? s.length() : dot;
      if (!matchesLabel(s, start, end, false)) {
        return false;
      }
      if (dot < 0) {
        return true;
      }
      start = dot + 1;
    }
  }

  /** Whether {@code s} matches {@code [a-z]([-a-z0-9]*[a-z0-9])?}. */
  static boolean matchesDns1035Label(String s) {
    return matchesLabel(s, 0, s.length(), true);
  }

  /** Whether {@code s} matches {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]}. */
  static boolean matchesQualifiedName(String s) {
    int n = s.length();
    if (n == 0 || !isAlphanumeric(s.charAt(0)) || !isAlphanumeric(s.charAt(n - 1))) {
      return false;
    }
    for (int i = 1; i < n - 1; i++) {
      char c = s.charAt(i);
      if (!isAlphanumeric(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }

  private static boolean matchesLabel(String s, int start, int end, boolean letterFirst) {
    if (start >= end) {
      return false;
    }
    char first = s.charAt(start);
    if (letterFirst ? !(first >= 'a' && first <= 'z') : !isLowerAlphanumeric(first)) {
      return false;
    }
    if (!isLowerAlphanumeric(s.charAt(end - 1))) {
      return false;
    }
    for (int i = start + 1; i < end - 1; i++) {
      char c = s.charAt(i);
      if (!isLowerAlphanumeric(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean isLowerAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean isAlphanumeric(char c) {
    return isLowerAlphanumeric(c) || (c >= 'A' && c <= 'Z');
  }

  /** kube's message for a string longer than {@code length}. */
  static String maxLenError(int length) {
    return "must be no more than " + length + " characters";
  }

  /**
   * kube's {@code RegexError}, with its exact punctuation: examples are joined as
   * {@code 'a',  or 'b', } (a double space), as kube's loop produces.
   */
  static String regexError(String msg, String fmt, String... examples) {
    if (examples.length == 0) {
      return msg + " (regex used for validation is '" + fmt + "')";
    }
    StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        b.append(" or ");
      }
      b.append('\'').append(examples[i]).append("', ");
    }
    return b.append("regex used for validation is '").append(fmt).append("')").toString();
  }

  /**
   * The UTF-8 length of {@code s}, counted without encoding it (annotation values can be large).
   * A lone surrogate counts 3 bytes, as the U+FFFD that replaces it when encoded.
   */
  public static int byteLength(String s) {
    int bytes = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}

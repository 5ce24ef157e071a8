package io.listwatch.api;

/**
 * The few pieces of Go's {@code strconv} whose text shows up in kube's error messages:
 * {@code strconv.Quote} (how {@code field.Error} prints a bad value), {@code ParseBool} (how kube
 * reads a boolean flag or query parameter) and the {@code ParseInt}/{@code ParseUint}/{@code
 * ParseBool} errors ({@code strconv.ParseInt: parsing "abc": invalid syntax}). Reproducing them keeps our messages recognisable to anyone who knows kube's.
 *
 * <p>Stateless; thread-safe.
 */
public final class Strconv {

  private Strconv() {
  }

  /**
   * Go's {@code strconv.Quote} for the strings we print: wraps {@code s} in double quotes and
   * escapes backslash, double quote and control characters. Printable non-ASCII characters are
   * kept as they are, as Go does.
   */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\x%02x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Go's {@code strconv.ParseInt(s, 10, 64)}: an optional sign and one or more ASCII digits.
   *
   * @throws NumberFormatException with Go's message, e.g.
   *     {@code strconv.ParseInt: parsing "abc": invalid syntax}
   */
  static long parseInt(String s) {
    int start = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
    return parseDigits(s, start, "ParseInt");
  }

  /**
   * Go's {@code strconv.ParseUint(s, 10, 64)}, limited to the range of a Java {@code long}:
   * one or more ASCII digits, no sign.
   *
   * @throws NumberFormatException with Go's message, e.g.
   *     {@code strconv.ParseUint: parsing "-1": invalid syntax}
   */
  static long parseUint(String s) {
    return parseDigits(s, 0, "ParseUint");
  }

  /**
   * Go's {@code strconv.ParseBool}: {@code 1 t T TRUE true True} are true, {@code 0 f F FALSE
   * false False} false.
   *
   * @throws IllegalArgumentException with Go's message for anything else, e.g.
   *     {@code strconv.ParseBool: parsing "yes": invalid syntax}
   */
  public static boolean parseBool(String s) {
    return switch (s) {
      case "1", "t", "T", "TRUE", "true", "True" -> true;
      case "0", "f", "F", "FALSE", "false", "False" -> false;
      default -> throw new IllegalArgumentException("strconv.ParseBool: parsing " + quote(s) + ": invalid syntax");
    };
  }

  private static long parseDigits(String s, int start, String function) {
    if (start >= s.length()) {
      throw error(function, s, "invalid syntax");
    }
    for (int i = start; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw error(function, s, "invalid syntax");
      }
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw error(function, s, "value out of range");
    }
  }

  private static NumberFormatException error(String function, String s, String why) {
    return new NumberFormatException("strconv." + function + ": parsing " + quote(s) + ": " + why);
  }
}

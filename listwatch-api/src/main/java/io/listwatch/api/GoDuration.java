package io.listwatch.api;

import java.math.BigDecimal;

/**
 * Go's {@code time.Duration} strings, which kube's {@code metav1.Duration} is in JSON
 * ({@code "1h2m3.5s"}, {@code "300ms"}, {@code "0s"}), to and from nanoseconds, as Go's
 * {@code Duration.String} and {@code time.ParseDuration} write and read them. Stateless.
 */
public final class GoDuration {

  private GoDuration() {
  }

  /** Go's {@code Duration.String()} of {@code nanos}. */
  public static String format(long nanos) {
    if (nanos == 0) {
      return "0s";
    }
    boolean negative = nanos < 0;
    // the magnitude of Long.MIN_VALUE does not fit a long: work in BigDecimal seconds
    BigDecimal abs = BigDecimal.valueOf(nanos).abs();
    StringBuilder out = new StringBuilder();
    if (negative) {
      out.append('-');
    }
    if (abs.compareTo(BigDecimal.valueOf(1_000_000_000L)) < 0) {
      // under a second: the largest unit of ns, us (as "µs") and ms that keeps the integer part
      long n = abs.longValue();
      if (n < 1_000) {
        return out.append(n).append("ns").toString();
      }
      if (n < 1_000_000) {
        return out.append(fraction(abs, 3)).append("µs").toString();
      }
      return out.append(fraction(abs, 6)).append("ms").toString();
    }
    BigDecimal seconds = abs.movePointLeft(9);
    long whole = seconds.longValue();
    long hours = whole / 3600;
    long minutes = (whole % 3600) / 60;
    BigDecimal secs = seconds.subtract(BigDecimal.valueOf(hours * 3600 + minutes * 60));
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    return out.append(plain(secs)).append('s').toString();
  }

  private static String fraction(BigDecimal nanos, int shift) {
    return plain(nanos.movePointLeft(shift));
  }

  private static String plain(BigDecimal d) {
    BigDecimal stripped = d.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0).toPlainString() : stripped.toPlainString();
  }

  /**
   * Go's {@code time.ParseDuration}: a sign, then decimal numbers each with a unit (ns, us, µs,
   * ms, s, m, h); "0" alone is zero.
   *
   * @throws IllegalArgumentException when {@code text} is not a duration
   */
  public static long parse(String text) {
    String s = text;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return 0;
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
    }
    BigDecimal total = BigDecimal.ZERO;
    int i = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      if (start == i) {
        throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
      }
      BigDecimal number;
      try {
        number = new BigDecimal(s.substring(start, i));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
      }
      int unitStart = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      long unit = switch (s.substring(unitStart, i)) {
        case "ns" -> 1L;
        case "us", "µs", "μs" -> 1_000L;
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        case "h" -> 3_600_000_000_000L;
        default -> throw new IllegalArgumentException("time: " + (unitStart == i ? "missing" : "unknown")
            + " unit in duration \"" + text + "\"");
      };
      total = total.add(number.multiply(BigDecimal.valueOf(unit)));
    }
    BigDecimal nanos = negative ? total.negate() : total;
    try {
      return nanos.setScale(0, java.math.RoundingMode.DOWN).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
    }
  }
}

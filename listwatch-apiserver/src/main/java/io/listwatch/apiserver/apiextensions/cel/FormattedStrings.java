package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.values.CelByteString;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * String values whose {@code format} CEL sees as another type, as kube converts them:
 * {@code byte} (base64) as {@code bytes}, {@code duration} (Go's {@code 1h30m}) as a
 * {@code duration}, {@code date} and {@code date-time} (RFC 3339) as a {@code timestamp}. A
 * value that does not parse stays a string, and a rule using it fails to evaluate.
 * Stateless; thread-safe.
 */
final class FormattedStrings {

  private static final Pattern DURATION_PART =
      Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|\u00b5s|ms|s|m|h)");
  private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L,
      "\u00b5s", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L,
      "h", 3_600_000_000_000L);

  private FormattedStrings() {
  }

  static Object of(String value, String format) {
    if (format == null) {
      return value;
    }
    try {
      return switch (format) {
        case "byte" -> CelByteString.of(Base64.getDecoder().decode(value));
        case "duration" -> goDuration(value);
        case "date-time" -> OffsetDateTime.parse(value).toInstant();
        case "date" -> LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
        default -> value;
      };
    } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException e) {
      return value;
    }
  }

  /** Go's {@code time.ParseDuration}. */
  static Duration goDuration(String s) {
    String rest = s;
    boolean negative = false;
    if (rest.startsWith("-") || rest.startsWith("+")) {
      negative = rest.startsWith("-");
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("invalid duration " + s);
    }
    Matcher m = DURATION_PART.matcher(rest);
    BigDecimal nanos = BigDecimal.ZERO;
    int at = 0;
    while (at < rest.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("invalid duration " + s);
      }
      nanos = nanos.add(new BigDecimal(m.group(1).startsWith(".") ? "0" + m.group(1)
          : m.group(1)).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
      at = m.end();
    }
    Duration d = Duration.ofNanos(nanos.longValueExact());
    return negative ? d.negated() : d;
  }
}

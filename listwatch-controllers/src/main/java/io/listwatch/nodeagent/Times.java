package io.listwatch.nodeagent;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** kube's time formats. Stateless. */
final class Times {

  private static final DateTimeFormatter MICRO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private Times() {
  }

  /** {@code metav1.Time}: RFC 3339 in whole seconds, e.g. {@code 2026-01-01T00:00:00Z}. */
  static String time(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /** {@code metav1.MicroTime}: six fractional digits, as Lease times are written. */
  static String microTime(Instant t) {
    return MICRO.format(t);
  }

  /** Parses either form; null for "" or unparsable text. */
  static Instant parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}

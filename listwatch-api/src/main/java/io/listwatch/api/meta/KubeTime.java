package io.listwatch.api.meta;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * kube's two time formats on the wire: {@code metav1.Time}, RFC 3339 in whole seconds
 * ({@code 2026-01-01T00:00:00Z}, as in {@code creationTimestamp}), and {@code metav1.MicroTime},
 * six fractional digits ({@code 2026-01-01T00:00:00.000000Z}, as in a Lease's
 * {@code renewTime} or an Event's {@code eventTime}). Both are written in UTC. Stateless.
 */
public final class KubeTime {

  private static final DateTimeFormatter MICRO =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

  private KubeTime() {
  }

  /** {@code metav1.Time}: the instant truncated to whole seconds. */
  public static String time(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /** {@code metav1.MicroTime}: the instant truncated to microseconds. */
  public static String microTime(Instant t) {
    return MICRO.format(t);
  }

  /** Parses either form (any RFC 3339 offset); null for null, "" or unparsable text. */
  public static Instant parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}

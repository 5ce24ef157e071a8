package io.listwatch.api.schema;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The string {@code format}s kube validates in custom resources; kube ignores unknown
 * formats. The numeric formats ({@code int32}, {@code int64}, {@code float}, ...) are range
 * checks on numbers, in {@link NumberRanges}.
 *
 * <p>Stateless; thread-safe.
 */
final class Formats {

  private static final Pattern UUID = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
  private static final Pattern UUID3 = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
  private static final Pattern UUID4 = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
  private static final Pattern UUID5 = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
  private static final Pattern BSON_OBJECT_ID = Pattern.compile("^[0-9a-fA-F]{24}$");
  private static final Pattern HOSTNAME = Pattern.compile(
      "^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}"
          + "[a-zA-Z0-9])?)*\\.?$");
  private static final Pattern IPV4 = Pattern.compile(
      "^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
  private static final Pattern MAC = Pattern.compile(
      "^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{4}\\.){2}[0-9a-fA-F]{4}$");

  /** Keyed by the format's name with dashes and underscores removed, as kube looks them up. */
  private static final Map<String, Predicate<String>> CHECKS = Map.ofEntries(
      Map.entry("datetime", Formats::isDateTime),
      Map.entry("date", Formats::isDate),
      Map.entry("byte", Formats::isBase64),
      Map.entry("uuid", s -> UUID.matcher(s).matches()),
      Map.entry("uuid3", s -> UUID3.matcher(s).matches()),
      Map.entry("uuid4", s -> UUID4.matcher(s).matches()),
      Map.entry("uuid5", s -> UUID5.matcher(s).matches()),
      Map.entry("bsonobjectid", s -> BSON_OBJECT_ID.matcher(s).matches()),
      Map.entry("hostname", s -> s.length() <= 255 && HOSTNAME.matcher(s).matches()),
      Map.entry("ipv4", s -> IPV4.matcher(s).matches()),
      Map.entry("ipv6", Formats::isIpv6),
      Map.entry("cidr", Formats::isCidr),
      Map.entry("mac", s -> MAC.matcher(s).matches()));

  private Formats() {
  }

  /** Whether {@code value} is valid for {@code format}; true for formats kube does not check. */
  static boolean isValid(String format, String value) {
    Predicate<String> check = CHECKS.get(format.replace("-", "").replace("_", "").toLowerCase());
    return check == null || check.test(value);
  }

  private static boolean isDateTime(String s) {
    try {
      OffsetDateTime.parse(s);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean isDate(String s) {
    try {
      LocalDate.parse(s);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** Go's {@code base64.StdEncoding}: padded to a multiple of four. */
  private static boolean isBase64(String s) {
    if (s.length() % 4 != 0) {
      return false;
    }
    try {
      Base64.getDecoder().decode(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isIpv6(String s) {
    return s.contains(":") && isInetLiteral(s);
  }

  private static boolean isCidr(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String ip = s.substring(0, slash);
    String bits = s.substring(slash + 1);
    boolean v4 = IPV4.matcher(ip).matches();
    if (!v4 && !isIpv6(ip) || !bits.matches("\\d{1,3}")) {
      return false;
    }
    return Integer.parseInt(bits) <= (v4 ? 32 : 128);
  }

  /** An IP literal, parsed without any name lookup (only hex digits, ':' and '.' allowed). */
  private static boolean isInetLiteral(String s) {
    if (!s.matches("[0-9a-fA-F:.]+")) {
      return false;
    }
    try {
      java.net.InetAddress.getByName(s);
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }
}

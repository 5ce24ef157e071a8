package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One entry of {@code metadata.managedFields}: the fields one manager owns through one
 * operation.
 *
 * <p>Immutable.
 *
 * @param manager the field manager's name, e.g. {@code kubectl}
 * @param operation {@link #APPLY} or {@link #UPDATE}
 * @param apiVersion the apiVersion the manager wrote with, e.g. {@code apps/v1}
 * @param time when the entry last changed, whole seconds; null when unknown
 * @param fields the owned fields
 * @param subresource the subresource written through, "" for the main resource
 */
public record ManagedFieldsEntry(String manager, String operation, String apiVersion, Instant time,
    FieldSet fields, String subresource) {

  /** The operation of server-side apply. */
  public static final String APPLY = "Apply";
  /** The operation of every other write (create, update, patch). */
  public static final String UPDATE = "Update";

  public ManagedFieldsEntry {
    Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(fields, "fields");
    apiVersion = apiVersion == null ? "" : apiVersion;
    subresource = subresource == null ? "" : subresource;
    time = time == null ? null : time.truncatedTo(ChronoUnit.SECONDS);
  }

  /**
   * Whether {@code other} is this entry's manager, as kube identifies managers: appliers by
   * name and subresource, updaters by name, apiVersion and subresource.
   */
  public boolean sameManager(ManagedFieldsEntry other) {
    return manager.equals(other.manager) && operation.equals(other.operation)
        && subresource.equals(other.subresource)
        && (operation.equals(APPLY) || apiVersion.equals(other.apiVersion));
  }

  /** This entry with other fields and time. */
  public ManagedFieldsEntry with(FieldSet newFields, Instant newTime) {
    return new ManagedFieldsEntry(manager, operation, apiVersion, newTime, newFields, subresource);
  }

  /** The entry as kube writes it. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    if (!manager.isEmpty()) {
      o.put("manager", manager); // omitempty: kube leaves out an empty manager
    }
    o.put("operation", operation);
    o.put("apiVersion", apiVersion);
    if (time != null) {
      o.put("time", formatTime(time));
    }
    o.put("fieldsType", "FieldsV1");
    o.set("fieldsV1", FieldsV1.toJson(fields));
    if (!subresource.isEmpty()) {
      o.put("subresource", subresource);
    }
    return o;
  }

  /**
   * Reads an entry.
   *
   * @throws IllegalArgumentException when the entry has no operation, or its fieldsType is not
   *     {@code FieldsV1} (a missing manager is the empty one, as Go decodes it)
   */
  public static ManagedFieldsEntry fromJson(JsonNode o) {
    String type = o.path("fieldsType").asText("");
    if (!type.equals("FieldsV1")) {
      throw new IllegalArgumentException("fieldsType must be FieldsV1, not \"" + type + "\"");
    }
    if (!o.hasNonNull("operation")) {
      throw new IllegalArgumentException("a managedFields entry needs an operation");
    }
    JsonNode fields = o.get("fieldsV1");
    return new ManagedFieldsEntry(o.path("manager").asText(""), o.get("operation").asText(),
        o.path("apiVersion").asText(""), o.hasNonNull("time") ? parseTime(o.get("time").asText()) : null,
        fields == null || fields.isNull() ? FieldSet.EMPTY : FieldsV1.parse(fields),
        o.path("subresource").asText(""));
  }

  /**
   * {@link Instant#toString()} of a whole second ({@code 2026-01-02T03:04:05Z}), written
   * directly for years 0 to 9999: every write formats one, and the formatter costs more than the
   * rest of the entry.
   */
  static String formatTime(Instant time) {
    if (time.getNano() != 0 || time.getEpochSecond() < YEAR_0 || time.getEpochSecond() >= YEAR_10000) {
      return time.toString();
    }
    java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(time.getEpochSecond(), 0,
        java.time.ZoneOffset.UTC);
    char[] c = "0000-00-00T00:00:00Z".toCharArray();
    digits(c, 0, t.getYear(), 4);
    digits(c, 5, t.getMonthValue(), 2);
    digits(c, 8, t.getDayOfMonth(), 2);
    digits(c, 11, t.getHour(), 2);
    digits(c, 14, t.getMinute(), 2);
    digits(c, 17, t.getSecond(), 2);
    return new String(c);
  }

  /**
   * {@link Instant#parse} of {@code text}, read directly when it has the form kube and
   * {@link #formatTime} write ({@code 2026-01-02T03:04:05Z}); any other form, or a value out
   * of range, goes to {@link Instant#parse} (and fails as it does).
   */
  static Instant parseTime(String text) {
    if (text.length() != 20 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
        || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(19) != 'Z') {
      return Instant.parse(text);
    }
    int year = number(text, 0, 4);
    int month = number(text, 5, 2);
    int day = number(text, 8, 2);
    int hour = number(text, 11, 2);
    int minute = number(text, 14, 2);
    int second = number(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1
        || day > java.time.Month.of(month).length(java.time.Year.isLeap(year)) || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return Instant.parse(text); // fails as it does
    }
    long days = java.time.LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second);
  }

  /** The decimal number of {@code length} ASCII digits at {@code from}, or -1 if one is not a digit. */
  private static int number(String s, int from, int length) {
    int n = 0;
    for (int i = from; i < from + length; i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        return -1;
      }
      n = n * 10 + (ch - '0');
    }
    return n;
  }

  private static void digits(char[] c, int at, int value, int length) {
    for (int i = at + length - 1; i >= at; i--) {
      c[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /** The first second of year 0 and of year 10000, the range {@link #formatTime} writes directly. */
  private static final long YEAR_0 = java.time.LocalDate.of(0, 1, 1).toEpochDay() * 86_400;
  private static final long YEAR_10000 = java.time.LocalDate.of(10_000, 1, 1).toEpochDay() * 86_400;

  /** How kube names this manager in a conflict: {@code "kubectl"}, or {@code "x" using apps/v1}. */
  String describe() {
    StringBuilder sb = new StringBuilder("\"").append(manager).append('"');
    if (!subresource.isEmpty()) {
      sb.append(" with subresource \"").append(subresource).append('"');
    }
    if (operation.equals(UPDATE)) {
      sb.append(" using ").append(apiVersion);
    }
    return sb.toString();
  }
}

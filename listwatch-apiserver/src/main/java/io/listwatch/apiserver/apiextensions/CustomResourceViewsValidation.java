package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's checks of how a CustomResourceDefinition version presents its objects, with kube's
 * field paths and messages:
 * <ul>
 *   <li>{@code additionalPrinterColumns}: a name; a type among boolean, date, integer, number
 *       and string; a format, when given, among byte, date, date-time, double, float, int32,
 *       int64 and password; a {@code jsonPath} starting with a dot;</li>
 *   <li>{@code subresources.scale}: {@code specReplicasPath} a path under {@code .spec},
 *       {@code statusReplicasPath} one under {@code .status}, {@code labelSelectorPath}, when
 *       given, under either;</li>
 *   <li>{@code selectableFields}: at most 8 distinct, each a {@code jsonPath} naming a field of
 *       the version's schema outside {@code metadata} (no array steps), of type string, boolean
 *       or integer; only with a schema.</li>
 * </ul>
 * Stateless.
 */
final class CustomResourceViewsValidation {

  /** kube's limit on a version's selectable fields. */
  static final int MAX_SELECTABLE_FIELDS = 8;

  private static final List<String> COLUMN_TYPES = List.of("boolean", "date", "integer", "number", "string");
  private static final List<String> COLUMN_FORMATS = List.of("byte", "date", "date-time", "double", "float",
      "int32", "int64", "password");

  private CustomResourceViewsValidation() {
  }

  /** Adds a cause to {@code causes} for every problem in the versions of {@code spec}. */
  static void check(List<Status.Cause> causes, JsonNode spec) {
    JsonNode versions = spec.path("versions");
    for (int i = 0; i < versions.size(); i++) {
      JsonNode v = versions.get(i);
      String at = "spec.versions[" + i + "]";
      JsonNode columns = v.path("additionalPrinterColumns");
      for (int j = 0; j < columns.size(); j++) {
        column(causes, at + ".additionalPrinterColumns[" + j + "]", columns.get(j));
      }
      if (v.path("subresources").has("scale")) {
        scale(causes, at + ".subresources.scale", v.path("subresources").path("scale"));
      }
      if (!v.path("selectableFields").isEmpty()) {
        selectableFields(causes, at + ".selectableFields", v.path("selectableFields"),
            v.path("schema").path("openAPIV3Schema"));
      }
    }
  }

  private static void column(List<Status.Cause> causes, String at, JsonNode column) {
    if (column.path("name").asText("").isEmpty()) {
      causes.add(required(at + ".name", ""));
    }
    String type = column.path("type").asText("");
    if (type.isEmpty()) {
      causes.add(required(at + ".type", "must be one of " + String.join(",", COLUMN_TYPES)));
    } else if (!COLUMN_TYPES.contains(type)) {
      causes.add(notSupported(at + ".type", type, COLUMN_TYPES));
    }
    String format = column.path("format").asText("");
    if (!format.isEmpty() && !COLUMN_FORMATS.contains(format)) {
      causes.add(notSupported(at + ".format", format, COLUMN_FORMATS));
    }
    String path = column.path("jsonPath").asText("");
    if (path.isEmpty()) {
      causes.add(required(at + ".jsonPath", ""));
    } else {
      simplePath(causes, at + ".jsonPath", path);
    }
  }

  private static void scale(List<Status.Cause> causes, String at, JsonNode scale) {
    underPath(causes, at + ".specReplicasPath", scale.path("specReplicasPath").asText(""), true,
        List.of(".spec."), "should be a json path under .spec");
    underPath(causes, at + ".statusReplicasPath", scale.path("statusReplicasPath").asText(""), true,
        List.of(".status."), "should be a json path under .status");
    underPath(causes, at + ".labelSelectorPath", scale.path("labelSelectorPath").asText(""), false,
        List.of(".spec.", ".status."), "should be a json path under either .spec or .status");
  }

  private static void underPath(List<Status.Cause> causes, String field, String path, boolean required,
      List<String> prefixes, String message) {
    if (path.isEmpty()) {
      if (required) {
        causes.add(required(field, ""));
      }
      return;
    }
    if (simplePath(causes, field, path) && prefixes.stream().noneMatch(path::startsWith)) {
      causes.add(invalid(field, path, message));
    }
  }

  /** kube's "simple JSON path" check: non-empty and starting with a dot. */
  private static boolean simplePath(List<Status.Cause> causes, String field, String path) {
    if (!path.startsWith(".")) {
      causes.add(invalid(field, path, "must be a simple json path starting with ."));
      return false;
    }
    return true;
  }

  private static void selectableFields(List<Status.Cause> causes, String at, JsonNode fields, JsonNode schema) {
    if (schema.isMissingNode() || schema.isNull()) {
      causes.add(invalid(at, "", "selectableFields may only be set when version.schema.openAPIV3Schema is not "
          + "included"));
      return;
    }
    Set<String> unique = new LinkedHashSet<>();
    for (int i = 0; i < fields.size(); i++) {
      String field = at + "[" + i + "].jsonPath";
      String path = fields.get(i).path("jsonPath").asText("");
      if (path.isEmpty()) {
        causes.add(required(field, ""));
        continue;
      }
      if (path.startsWith(".metadata.") || path.equals(".metadata")) {
        causes.add(invalid(field, path, "must not point to fields in metadata"));
        continue;
      }
      JsonNode found = schemaAt(schema, path);
      if (found == null) {
        causes.add(invalid(field, path, "is an invalid path: does not refer to a valid field"));
        continue;
      }
      String type = found.path("type").asText("");
      if (!type.equals("string") && !type.equals("boolean") && !type.equals("integer")) {
        causes.add(invalid(field, path, "must point to a field of type string, boolean or integer. Enum string "
            + "fields and strings with formats are allowed."));
      }
      if (!unique.add(path)) {
        causes.add(new Status.Cause(Reasons.FIELD_VALUE_DUPLICATE, "Duplicate value: \"" + path + "\"", field));
      }
    }
    if (unique.size() > MAX_SELECTABLE_FIELDS) {
      causes.add(new Status.Cause("FieldValueTooMany", "Too many: " + unique.size()
          + ": must have at most " + MAX_SELECTABLE_FIELDS + " items", at));
    }
  }

  /** The schema of the field at a dotted path ({@code .spec.color}), or null when the schema has none. */
  private static JsonNode schemaAt(JsonNode schema, String path) {
    if (!path.startsWith(".") || path.length() < 2 || path.endsWith(".") || path.contains("..")
        || path.contains("[")) {
      return null;
    }
    JsonNode node = schema;
    for (String step : path.substring(1).split("\\.")) {
      node = node.path("properties").get(step);
      if (node == null) {
        return null;
      }
    }
    return node;
  }

  private static Status.Cause required(String field, String detail) {
    return new Status.Cause(Reasons.FIELD_VALUE_REQUIRED, detail.isEmpty() ? "Required value"
        : "Required value: " + detail, field);
  }

  private static Status.Cause invalid(String field, String value, String message) {
    return new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: \"" + value + "\": " + message, field);
  }

  private static Status.Cause notSupported(String field, String value, List<String> supported) {
    return new Status.Cause(Reasons.FIELD_VALUE_NOT_SUPPORTED, "Unsupported value: \"" + value
        + "\": supported values: " + String.join(", ", supported.stream().map(s -> "\"" + s + "\"").toList()), field);
  }
}

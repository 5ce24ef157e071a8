package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The Table of a custom resource, from its version's {@code additionalPrinterColumns}, as
 * kube's apiextensions server prints it: NAME, then each declared column in order (name, type,
 * format, description and priority as declared). A version that declares none gets one,
 * {@code Age}, a {@code date} column on {@code .metadata.creationTimestamp}.
 *
 * <p>Each cell is the first value the column's {@link JsonPath} selects, or null when it
 * selects nothing. By the column's type: {@code string} prints the value as JSONPath prints it
 * (an object as {@code map[..]}); {@code integer} a whole number (a fraction truncated);
 * {@code number} a double; {@code boolean} a boolean; {@code date} the time since that RFC 3339
 * timestamp as an age ({@code 5m}), or {@code <invalid>} when it is not one. A value of another
 * JSON type than the column's is null. A column whose path cannot be parsed prints null cells.
 *
 * <p>Immutable and thread-safe.
 */
public final class CustomResourceTableConvertor implements TableConvertor {

  /** What kube serves for a version without printer columns. */
  private static final JsonNode DEFAULT_COLUMNS = JsonNodeFactory.instance.arrayNode().add(
      JsonNodeFactory.instance.objectNode()
          .put("name", "Age").put("type", "date")
          .put("description", "CreationTimestamp is a timestamp representing the server time when this object was "
              + "created.")
          .put("jsonPath", ".metadata.creationTimestamp"));

  private final List<ColumnDefinition> columns;
  /** The path of each declared column, in order; null where the path does not parse. */
  private final List<JsonPath> paths;

  private CustomResourceTableConvertor(List<ColumnDefinition> columns, List<JsonPath> paths) {
    this.columns = List.copyOf(columns);
    this.paths = java.util.Collections.unmodifiableList(paths);
  }

  /**
   * The convertor of a version declaring {@code additionalPrinterColumns} (an array of
   * {@code {name, type, format, description, priority, jsonPath}}; missing or empty for none).
   */
  public static CustomResourceTableConvertor of(JsonNode additionalPrinterColumns) {
    JsonNode declared = additionalPrinterColumns != null && additionalPrinterColumns.isArray()
        && !additionalPrinterColumns.isEmpty() ? additionalPrinterColumns : DEFAULT_COLUMNS;
    List<ColumnDefinition> columns = new ArrayList<>();
    columns.add(new ColumnDefinition("Name", "string", "name",
        "Name must be unique within a namespace. Is required when creating resources, although some resources may "
            + "allow a client to request the generation of an appropriate name automatically. Name is primarily "
            + "intended for creation idempotence and configuration definition. Cannot be updated.", 0));
    List<JsonPath> paths = new ArrayList<>();
    for (JsonNode c : declared) {
      columns.add(new ColumnDefinition(c.path("name").asText(""), c.path("type").asText(""),
          c.path("format").asText(""), c.path("description").asText(""), c.path("priority").asInt(0)));
      JsonPath path;
      try {
        path = JsonPath.parse(c.path("jsonPath").asText(""));
      } catch (IllegalArgumentException e) {
        path = null;
      }
      paths.add(path);
    }
    return new CustomResourceTableConvertor(columns, paths);
  }

  @Override
  public List<ColumnDefinition> columnDefinitions() {
    return columns;
  }

  @Override
  public TableRow row(JsonNode object, Instant now) {
    List<Object> cells = new ArrayList<>(columns.size());
    cells.add(Cells.name(object));
    for (int i = 0; i < paths.size(); i++) {
      JsonPath path = paths.get(i);
      JsonNode value = path == null ? null : path.first(object).orElse(null);
      cells.add(value == null ? null : cell(columns.get(i + 1).type(), value, now));
    }
    return new TableRow(cells, List.of());
  }

  private static Object cell(String type, JsonNode value, Instant now) {
    if (value.isNull()) {
      return null;
    }
    return switch (type) {
      case "string" -> JsonPath.text(value);
      case "integer" -> value.isNumber() ? (Object) value.longValue() : null;
      case "number" -> value.isNumber() ? (Object) value.doubleValue() : null;
      case "boolean" -> value.isBoolean() ? (Object) value.booleanValue() : null;
      case "date" -> {
        if (!value.isTextual()) {
          yield null;
        }
        Instant t = Cells.time(value);
        yield t == null ? "<invalid>" : HumanDuration.since(t, now);
      }
      default -> null;
    };
  }
}

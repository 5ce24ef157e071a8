package io.listwatch.apiserver.printers;

import java.util.Objects;

/**
 * One column of a Table (meta.k8s.io/v1 {@code TableColumnDefinition}). Immutable.
 *
 * @param name the header, e.g. {@code "Ready"}; kubectl prints it upper-cased
 * @param type {@code string}, {@code integer}, {@code number}, {@code boolean} or {@code date}
 * @param format {@code "name"} for the column holding the object's name, else usually ""
 * @param description what the column shows
 * @param priority 0 for columns always shown; above 0 for those {@code kubectl get -o wide} adds
 */
public record ColumnDefinition(String name, String type, String format, String description, int priority) {

  public ColumnDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(description, "description");
  }

  /** The NAME column every kind has. */
  public static ColumnDefinition nameColumn() {
    return new ColumnDefinition("Name", "string", "name", "The name of the object, unique in its namespace.", 0);
  }

  /** The AGE column: time since the object was created, as kube's human-readable duration. */
  public static ColumnDefinition ageColumn() {
    return string("Age", "Time since the object was created.");
  }

  /** A priority-0 string column. */
  public static ColumnDefinition string(String name, String description) {
    return new ColumnDefinition(name, "string", "", description, 0);
  }

  /** A priority-0 integer column. */
  public static ColumnDefinition integer(String name, String description) {
    return new ColumnDefinition(name, "integer", "", description, 0);
  }

  /** A priority-0 boolean column. */
  public static ColumnDefinition bool(String name, String description) {
    return new ColumnDefinition(name, "boolean", "", description, 0);
  }

  /** A string column shown only with {@code -o wide} (priority 1). */
  public static ColumnDefinition wide(String name, String description) {
    return new ColumnDefinition(name, "string", "", description, 1);
  }
}

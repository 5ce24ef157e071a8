package io.listwatch.apiserver.printers;

import java.util.List;

/**
 * The printed part of one Table row (meta.k8s.io/v1 {@code TableRow} without its object): one
 * cell per column definition, in order, each a String, a Long, a Double or a Boolean; and the
 * row's conditions. Immutable.
 */
public record TableRow(List<Object> cells, List<Condition> conditions) {

  public TableRow {
    cells = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(cells));
    conditions = List.copyOf(conditions);
  }

  /** A row without conditions. */
  public static TableRow of(Object... cells) {
    return new TableRow(List.of(cells), List.of());
  }

  /**
   * A row condition (meta.k8s.io/v1 {@code TableRowCondition}); kube uses only
   * {@code Completed}, set for pods that succeeded or failed.
   */
  public record Condition(String type, String status, String reason, String message) {
  }
}

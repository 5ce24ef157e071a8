package io.listwatch.apiserver.printers;

import java.util.List;

/**
 * A {@link TableConvertor} of a built-in kind, whose columns are fixed when it is made (kube's
 * printers register a kind's column definitions once, with its print handler); the subclass
 * prints the rows. Immutable and thread-safe.
 */
abstract class FixedColumnsTableConvertor implements TableConvertor {

  private final List<ColumnDefinition> columns;

  FixedColumnsTableConvertor(List<ColumnDefinition> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override
  public final List<ColumnDefinition> columnDefinitions() {
    return columns;
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** Namespaces: NAME, STATUS (the phase: Active or Terminating), AGE. Stateless. */
public final class NamespaceTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Status", "The phase of the namespace."), ColumnDefinition.ageColumn());

  public NamespaceTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode ns, Instant now) {
    return TableRow.of(Cells.name(ns), Cells.text(ns.path("status").path("phase")), Cells.age(ns, now));
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * policy/v1 PodDisruptionBudgets: NAME, MIN AVAILABLE, MAX UNAVAILABLE (each a number or a
 * percentage as given, {@code N/A} when unset), ALLOWED DISRUPTIONS
 * ({@code status.disruptionsAllowed}), AGE. Stateless.
 */
public final class PodDisruptionBudgetTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Min Available", "Pods that must stay available."),
      ColumnDefinition.string("Max Unavailable", "Pods that may be unavailable."),
      ColumnDefinition.integer("Allowed Disruptions", "Pods that may be disrupted now."),
      ColumnDefinition.ageColumn());

  public PodDisruptionBudgetTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode pdb, Instant now) {
    JsonNode spec = pdb.path("spec");
    return TableRow.of(Cells.name(pdb), Cells.intOrString(spec.path("minAvailable"), "N/A"),
        Cells.intOrString(spec.path("maxUnavailable"), "N/A"),
        Cells.integer(pdb.path("status").path("disruptionsAllowed"), 0), Cells.age(pdb, now));
  }
}

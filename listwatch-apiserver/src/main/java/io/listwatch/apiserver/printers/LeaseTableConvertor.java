package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** Leases: NAME, HOLDER (spec.holderIdentity), AGE. Stateless. */
public final class LeaseTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Holder", "Who holds the lease."), ColumnDefinition.ageColumn());

  public LeaseTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode lease, Instant now) {
    return TableRow.of(Cells.name(lease), Cells.text(lease.path("spec").path("holderIdentity")),
        Cells.age(lease, now));
  }
}

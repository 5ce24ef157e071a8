package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** ServiceAccounts: NAME, SECRETS (how many the account lists), AGE. Stateless. */
public final class ServiceAccountTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Secrets", "The number of secrets the service account lists."), ColumnDefinition.ageColumn());

  public ServiceAccountTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode sa, Instant now) {
    return TableRow.of(Cells.name(sa), (long) Cells.elements(sa.path("secrets")).size(), Cells.age(sa, now));
  }
}

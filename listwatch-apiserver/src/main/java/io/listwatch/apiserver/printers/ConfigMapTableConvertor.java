package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** ConfigMaps: NAME, DATA (entries in data and binaryData), AGE. Stateless. */
public final class ConfigMapTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Data", "The number of entries in data and binaryData."), ColumnDefinition.ageColumn());

  public ConfigMapTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode cm, Instant now) {
    return TableRow.of(Cells.name(cm), (long) (cm.path("data").size() + cm.path("binaryData").size()),
        Cells.age(cm, now));
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** storage.k8s.io/v1 CSINodes, as kube's {@code printCSINode}: NAME, DRIVERS (how many), AGE. Stateless. */
public final class CSINodeTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.integer("Drivers", "How many CSI drivers the node has."),
      ColumnDefinition.ageColumn());

  public CSINodeTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode node, Instant now) {
    return TableRow.of(Cells.name(node), (long) node.path("spec").path("drivers").size(), Cells.age(node, now));
  }
}

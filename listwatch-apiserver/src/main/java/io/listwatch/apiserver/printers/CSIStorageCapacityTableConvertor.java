package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.time.Instant;
import java.util.List;

/**
 * storage.k8s.io/v1 CSIStorageCapacities, as kube's {@code printCSIStorageCapacity}: NAME,
 * STORAGECLASSNAME, CAPACITY (canonical, {@code <unset>} without one); no AGE column. Stateless.
 */
public final class CSIStorageCapacityTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("StorageClassName", "The storage class the capacity is for."),
      ColumnDefinition.string("Capacity", "The capacity the driver reported."));

  public CSIStorageCapacityTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode capacity, Instant now) {
    return TableRow.of(Cells.name(capacity), Cells.text(capacity.path("storageClassName")),
        capacity(Cells.text(capacity.path("capacity"))));
  }

  /** kube's {@code Quantity.String()}: the canonical form. */
  private static String capacity(String quantity) {
    if (quantity.isEmpty()) {
      return "<unset>";
    }
    try {
      return Quantity.of(quantity).toString();
    } catch (IllegalArgumentException e) {
      return quantity;
    }
  }
}

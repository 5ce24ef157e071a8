package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * storage.k8s.io/v1 StorageClasses: NAME ({@code " (default)"} appended for the default class,
 * marked by the {@code is-default-class} annotation or its beta form), PROVISIONER,
 * RECLAIMPOLICY (Delete when unset), VOLUMEBINDINGMODE (Immediate when unset),
 * ALLOWVOLUMEEXPANSION (a boolean, false when unset), AGE. Stateless.
 */
public final class StorageClassTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Provisioner", "The volume plugin that provisions volumes of this class."),
      ColumnDefinition.string("ReclaimPolicy", "What happens to volumes of this class when released."),
      ColumnDefinition.string("VolumeBindingMode", "When claims of this class get a volume."),
      ColumnDefinition.string("AllowVolumeExpansion", "Whether volumes of this class can grow."),
      ColumnDefinition.ageColumn());

  public StorageClassTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode sc, Instant now) {
    boolean isDefault = Cells.annotation(sc, "storageclass.kubernetes.io/is-default-class").equals("true")
        || Cells.annotation(sc, "storageclass.beta.kubernetes.io/is-default-class").equals("true");
    return TableRow.of(isDefault ? Cells.name(sc) + " (default)" : Cells.name(sc),
        Cells.text(sc.path("provisioner")),
        Cells.text(sc.path("reclaimPolicy"), "Delete"),
        Cells.text(sc.path("volumeBindingMode"), "Immediate"),
        sc.path("allowVolumeExpansion").asBoolean(false),
        Cells.age(sc, now));
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * PersistentVolumeClaims: NAME, STATUS (the phase, or {@code Terminating}), VOLUME, CAPACITY
 * and ACCESS MODES (from the status, once the claim names a volume; empty before), STORAGECLASS
 * (the beta annotation, else {@code storageClassName}), VOLUMEATTRIBUTESCLASS ({@code <unset>}),
 * AGE; with {@code -o wide} VOLUMEMODE. Fields kube's defaulting would have set print their
 * default when missing: phase Pending, volume mode Filesystem. Stateless.
 */
public final class PersistentVolumeClaimTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Status", "The phase of the claim."),
      ColumnDefinition.string("Volume", "The volume bound to the claim."),
      ColumnDefinition.string("Capacity", "The storage capacity of the bound volume."),
      ColumnDefinition.string("Access Modes", "How the bound volume can be mounted."),
      ColumnDefinition.string("StorageClass", "The storage class the claim asks for."),
      ColumnDefinition.string("VolumeAttributesClass", "The volume attributes class the claim asks for."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.wide("VolumeMode", "Whether the claim wants a filesystem or a block device."));

  public PersistentVolumeClaimTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode pvc, Instant now) {
    JsonNode spec = pvc.path("spec");
    JsonNode status = pvc.path("status");
    String volume = Cells.text(spec.path("volumeName"));
    return TableRow.of(Cells.name(pvc),
        Cells.deleting(pvc) ? "Terminating" : Cells.text(status.path("phase"), "Pending"),
        volume,
        volume.isEmpty() ? "" : Cells.text(status.path("capacity").path("storage"), "0"),
        volume.isEmpty() ? "" : PersistentVolumeTableConvertor.accessModes(status.path("accessModes")),
        PersistentVolumeTableConvertor.storageClass(pvc),
        PersistentVolumeTableConvertor.volumeAttributesClass(spec),
        Cells.age(pvc, now),
        Cells.text(spec.path("volumeMode"), "Filesystem"));
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PersistentVolumes: NAME, CAPACITY (the storage capacity, {@code 0} without one), ACCESS MODES
 * ({@code RWO,ROX,RWX,RWOP}), RECLAIM POLICY, STATUS (the phase, or {@code Terminating}),
 * CLAIM ({@code namespace/name} of the bound claim), STORAGECLASS, VOLUMEATTRIBUTESCLASS
 * ({@code <unset>}), REASON, AGE; with {@code -o wide} VOLUMEMODE. Fields kube's defaulting
 * would have set print their default when missing: reclaim policy Retain, phase Pending,
 * volume mode Filesystem. Quantities print as stored. Stateless.
 */
public final class PersistentVolumeTableConvertor extends FixedColumnsTableConvertor {

  /** The storage class annotation kube reads before {@code storageClassName}. */
  private static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

  private static final Map<String, String> ACCESS_MODES = new LinkedHashMap<>();

  static {
    ACCESS_MODES.put("ReadWriteOnce", "RWO");
    ACCESS_MODES.put("ReadOnlyMany", "ROX");
    ACCESS_MODES.put("ReadWriteMany", "RWX");
    ACCESS_MODES.put("ReadWriteOncePod", "RWOP");
  }

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Capacity", "The storage capacity of the volume."),
      ColumnDefinition.string("Access Modes", "How the volume can be mounted."),
      ColumnDefinition.string("Reclaim Policy", "What happens to the volume when its claim is released."),
      ColumnDefinition.string("Status", "The phase of the volume."),
      ColumnDefinition.string("Claim", "The claim bound to the volume."),
      ColumnDefinition.string("StorageClass", "The storage class of the volume."),
      ColumnDefinition.string("VolumeAttributesClass", "The volume attributes class of the volume."),
      ColumnDefinition.string("Reason", "Why the volume is in its phase."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.wide("VolumeMode", "Whether the volume is a filesystem or a block device."));

  public PersistentVolumeTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode pv, Instant now) {
    JsonNode spec = pv.path("spec");
    JsonNode claim = spec.path("claimRef");
    return TableRow.of(Cells.name(pv),
        Cells.text(spec.path("capacity").path("storage"), "0"),
        accessModes(spec.path("accessModes")),
        Cells.text(spec.path("persistentVolumeReclaimPolicy"), "Retain"),
        Cells.deleting(pv) ? "Terminating" : Cells.text(pv.path("status").path("phase"), "Pending"),
        claim.isObject() ? Cells.text(claim.path("namespace")) + "/" + Cells.text(claim.path("name")) : "",
        storageClass(pv),
        volumeAttributesClass(spec),
        Cells.text(pv.path("status").path("reason")),
        Cells.age(pv, now),
        Cells.text(spec.path("volumeMode"), "Filesystem"));
  }

  /** Access modes as kube abbreviates them, in its fixed order, each once. */
  static String accessModes(JsonNode modes) {
    List<String> given = new ArrayList<>();
    Cells.elements(modes).forEach(m -> given.add(Cells.text(m)));
    List<String> out = new ArrayList<>();
    ACCESS_MODES.forEach((mode, abbreviation) -> {
      if (given.contains(mode)) {
        out.add(abbreviation);
      }
    });
    return String.join(",", out);
  }

  /** The beta storage class annotation when present (even empty), else {@code spec.storageClassName}. */
  static String storageClass(JsonNode volumeOrClaim) {
    JsonNode annotations = volumeOrClaim.path("metadata").path("annotations");
    return annotations.has(BETA_STORAGE_CLASS) ? Cells.text(annotations.path(BETA_STORAGE_CLASS))
        : Cells.text(volumeOrClaim.path("spec").path("storageClassName"));
  }

  /** {@code spec.volumeAttributesClassName}, or {@code <unset>}. */
  static String volumeAttributesClass(JsonNode spec) {
    JsonNode name = spec.path("volumeAttributesClassName");
    return name.isTextual() ? name.textValue() : "<unset>";
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * storage.k8s.io/v1 VolumeAttachments, as kube's {@code printVolumeAttachment}: NAME, ATTACHER,
 * PV (the persistent volume's name, empty for an inline volume), NODE, ATTACHED (false until
 * the status says otherwise), AGE. Stateless.
 */
public final class VolumeAttachmentTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Attacher", "The CSI driver that attaches the volume."),
      ColumnDefinition.string("PV", "The persistent volume attached."),
      ColumnDefinition.string("Node", "The node the volume is attached to."),
      ColumnDefinition.bool("Attached", "Whether the attach operation succeeded."),
      ColumnDefinition.ageColumn());

  public VolumeAttachmentTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode va, Instant now) {
    JsonNode spec = va.path("spec");
    return TableRow.of(Cells.name(va), Cells.text(spec.path("attacher")),
        Cells.text(spec.path("source").path("persistentVolumeName")), Cells.text(spec.path("nodeName")),
        va.path("status").path("attached").asBoolean(false), Cells.age(va, now));
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * v1 PodTemplates: NAME, CONTAINERS, IMAGES (each comma-joined in container order), POD LABELS
 * (the template's labels, {@code <none>} without), as kube 1.32 prints them; no AGE. Stateless.
 */
public final class PodTemplateTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Containers", "Names of each container in the template."),
      ColumnDefinition.string("Images", "Images referenced by each container in the template."),
      ColumnDefinition.string("Pod Labels", "The labels for the pod template."));

  public PodTemplateTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode pt, Instant now) {
    JsonNode template = pt.path("template");
    return TableRow.of(Cells.name(pt), WorkloadColumns.containerField(template, "name"),
        WorkloadColumns.containerField(template, "image"), Cells.labels(template.path("metadata").path("labels")));
  }
}

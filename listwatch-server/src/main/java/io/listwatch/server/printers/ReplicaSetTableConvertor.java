package io.listwatch.server.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * ReplicaSets: NAME, DESIRED, CURRENT, READY, AGE; with {@code -o wide} CONTAINERS, IMAGES,
 * SELECTOR. Desired replicas default to 1, as kube's defaulting sets them. Stateless.
 */
public final class ReplicaSetTableConvertor implements TableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(
      ColumnDefinition.nameColumn(),
      ColumnDefinition.integer("Desired", "Replicas wanted."),
      ColumnDefinition.integer("Current", "Replicas that exist."),
      ColumnDefinition.integer("Ready", "Replicas that are ready."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.wide("Containers", "Names of each container in the template."),
      ColumnDefinition.wide("Images", "Images referenced by each container in the template."),
      ColumnDefinition.wide("Selector", "The label selector of the pods."));

  @Override
  public List<ColumnDefinition> columnDefinitions() {
    return COLUMNS;
  }

  @Override
  public TableRow row(JsonNode rs, Instant now) {
    JsonNode spec = rs.path("spec");
    JsonNode status = rs.path("status");
    String[] containers = Cells.containersAndImages(spec.path("template"));
    return TableRow.of(Cells.name(rs), Cells.integer(spec.path("replicas"), 1),
        Cells.integer(status.path("replicas"), 0), Cells.integer(status.path("readyReplicas"), 0),
        Cells.age(rs, now), containers[0], containers[1], Cells.labelSelector(spec.path("selector")));
  }
}

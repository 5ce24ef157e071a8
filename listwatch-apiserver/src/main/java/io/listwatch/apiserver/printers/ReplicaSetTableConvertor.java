package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * ReplicaSets: NAME, DESIRED, CURRENT, READY, AGE; with {@code -o wide} CONTAINERS, IMAGES,
 * SELECTOR ({@code <none>} when empty). Desired replicas default to 1, as kube's defaulting
 * sets them. Stateless.
 */
public final class ReplicaSetTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.integer("Desired", "Replicas wanted."),
      ColumnDefinition.integer("Current", "Replicas that exist."),
      ColumnDefinition.integer("Ready", "Replicas that are ready."));

  public ReplicaSetTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode rs, Instant now) {
    JsonNode spec = rs.path("spec");
    JsonNode status = rs.path("status");
    return WorkloadColumns.row(rs, now, List.of(Cells.integer(spec.path("replicas"), 1),
            Cells.integer(status.path("replicas"), 0), Cells.integer(status.path("readyReplicas"), 0)),
        spec.path("template"), Cells.formatLabelSelector(spec.path("selector")));
  }
}

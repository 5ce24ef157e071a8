package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * v1 ReplicationControllers: NAME, DESIRED, CURRENT, READY, AGE; with {@code -o wide}
 * CONTAINERS, IMAGES, SELECTOR (the selector's labels, {@code <none>} when empty). Desired
 * replicas default to 1, as kube's defaulting sets them. Stateless.
 */
public final class ReplicationControllerTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.integer("Desired", "Replicas wanted."),
      ColumnDefinition.integer("Current", "Replicas that exist."),
      ColumnDefinition.integer("Ready", "Replicas that are ready."));

  public ReplicationControllerTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode rc, Instant now) {
    JsonNode spec = rc.path("spec");
    JsonNode status = rc.path("status");
    return WorkloadColumns.row(rc, now, List.of(Cells.integer(spec.path("replicas"), 1),
            Cells.integer(status.path("replicas"), 0), Cells.integer(status.path("readyReplicas"), 0)),
        spec.path("template"), Cells.labels(spec.path("selector")));
  }
}

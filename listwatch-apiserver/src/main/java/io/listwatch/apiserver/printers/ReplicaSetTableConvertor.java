package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * ReplicaSets, and v1 ReplicationControllers ({@link #forReplicationControllers}): NAME,
 * DESIRED, CURRENT, READY, AGE; with {@code -o wide} CONTAINERS, IMAGES, SELECTOR (a
 * ReplicaSet's label selector, a ReplicationController's label map; {@code <none>} when empty). Desired replicas default to 1, as kube's defaulting
 * sets them. Stateless.
 */
public final class ReplicaSetTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.integer("Desired", "Replicas wanted."),
      ColumnDefinition.integer("Current", "Replicas that exist."),
      ColumnDefinition.integer("Ready", "Replicas that are ready."));

  /** How the SELECTOR column prints the spec's selector. */
  private final java.util.function.Function<JsonNode, String> selector;

  public ReplicaSetTableConvertor() {
    this(Cells::formatLabelSelector);
  }

  private ReplicaSetTableConvertor(java.util.function.Function<JsonNode, String> selector) {
    super(COLUMNS);
    this.selector = selector;
  }

  /** The columns of v1 ReplicationControllers, whose selector is a label map. */
  public static ReplicaSetTableConvertor forReplicationControllers() {
    return new ReplicaSetTableConvertor(Cells::labels);
  }

  @Override
  public TableRow row(JsonNode rs, Instant now) {
    JsonNode spec = rs.path("spec");
    JsonNode status = rs.path("status");
    return WorkloadColumns.row(rs, now, List.of(Cells.integer(spec.path("replicas"), 1),
            Cells.integer(status.path("replicas"), 0), Cells.integer(status.path("readyReplicas"), 0)),
        spec.path("template"), selector.apply(spec.path("selector")));
  }
}

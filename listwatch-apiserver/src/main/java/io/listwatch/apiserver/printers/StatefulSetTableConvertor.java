package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * StatefulSets: NAME, READY (ready/desired replicas), AGE; with {@code -o wide} CONTAINERS and
 * IMAGES (kube prints no selector for them). Desired replicas default to 1, as kube's
 * defaulting sets them. Stateless.
 */
public final class StatefulSetTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.copyOf(WorkloadColumns.withoutSelector(
      ColumnDefinition.string("Ready", "Ready replicas out of desired replicas.")));

  public StatefulSetTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode sts, Instant now) {
    JsonNode spec = sts.path("spec");
    return WorkloadColumns.row(sts, now, List.of(
            Cells.integer(sts.path("status").path("readyReplicas"), 0) + "/" + Cells.integer(spec.path("replicas"), 1)),
        spec.path("template"));
  }
}

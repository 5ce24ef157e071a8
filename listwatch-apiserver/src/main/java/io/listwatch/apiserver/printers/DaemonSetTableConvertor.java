package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * DaemonSets: NAME, DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE (the scheduled, ready,
 * updated and available counts of the status), NODE SELECTOR (the pod template's, sorted
 * {@code k=v}, or {@code <none>}), AGE; with {@code -o wide} CONTAINERS, IMAGES, SELECTOR.
 * Stateless.
 */
public final class DaemonSetTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.integer("Desired", "Nodes that should run the daemon pod."),
      ColumnDefinition.integer("Current", "Nodes that run at least one daemon pod and should."),
      ColumnDefinition.integer("Ready", "Nodes whose daemon pod is ready."),
      ColumnDefinition.integer("Up-to-date", "Nodes that run the current pod template."),
      ColumnDefinition.integer("Available", "Nodes whose daemon pod is available."),
      ColumnDefinition.string("Node Selector", "The node selector of the pod template."));

  public DaemonSetTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode ds, Instant now) {
    JsonNode spec = ds.path("spec");
    JsonNode status = ds.path("status");
    return WorkloadColumns.row(ds, now, List.of(
            Cells.integer(status.path("desiredNumberScheduled"), 0),
            Cells.integer(status.path("currentNumberScheduled"), 0),
            Cells.integer(status.path("numberReady"), 0),
            Cells.integer(status.path("updatedNumberScheduled"), 0),
            Cells.integer(status.path("numberAvailable"), 0),
            Cells.labels(spec.path("template").path("spec").path("nodeSelector"))),
        spec.path("template"), Cells.formatLabelSelector(spec.path("selector")));
  }
}

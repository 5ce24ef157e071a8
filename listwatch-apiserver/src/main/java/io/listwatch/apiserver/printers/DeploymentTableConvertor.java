package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * Deployments: NAME, READY (ready/desired replicas), UP-TO-DATE, AVAILABLE, AGE; with
 * {@code -o wide} CONTAINERS, IMAGES, SELECTOR (empty when the selector is). Desired replicas
 * default to 1, as kube's defaulting sets them. As in kube, UP-TO-DATE and AVAILABLE are
 * declared strings but carry integers. Stateless.
 */
public final class DeploymentTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.string("Ready", "Ready replicas out of desired replicas."),
      ColumnDefinition.string("Up-to-date", "Replicas that run the current pod template."),
      ColumnDefinition.string("Available", "Replicas available to serve."));

  public DeploymentTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode d, Instant now) {
    JsonNode spec = d.path("spec");
    JsonNode status = d.path("status");
    return WorkloadColumns.row(d, now, List.of(
            Cells.integer(status.path("readyReplicas"), 0) + "/" + Cells.integer(spec.path("replicas"), 1),
            Cells.integer(status.path("updatedReplicas"), 0),
            Cells.integer(status.path("availableReplicas"), 0)),
        spec.path("template"), Cells.labelSelector(spec.path("selector")));
  }
}

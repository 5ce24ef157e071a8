package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The layout every workload printer shares (deployments, replica sets, stateful sets, daemon
 * sets, jobs, cron jobs): NAME, the kind's own columns, AGE, then the {@code -o wide} columns
 * of its pod template, CONTAINERS and IMAGES (each comma-joined in container order), and for
 * all but stateful sets SELECTOR. The one place for those columns and cells. Stateless.
 */
final class WorkloadColumns {

  static final ColumnDefinition CONTAINERS =
      ColumnDefinition.wide("Containers", "Names of the containers in the pod template.");
  static final ColumnDefinition IMAGES =
      ColumnDefinition.wide("Images", "Images of the containers in the pod template.");
  static final ColumnDefinition SELECTOR =
      ColumnDefinition.wide("Selector", "The label selector of the pods.");

  private WorkloadColumns() {
  }

  /** NAME, {@code own} columns, AGE, then CONTAINERS, IMAGES and SELECTOR. */
  static List<ColumnDefinition> withSelector(ColumnDefinition... own) {
    List<ColumnDefinition> columns = withoutSelector(own);
    columns.add(SELECTOR);
    return List.copyOf(columns);
  }

  /** NAME, {@code own} columns, AGE, then CONTAINERS and IMAGES. */
  static List<ColumnDefinition> withoutSelector(ColumnDefinition... own) {
    List<ColumnDefinition> columns = new ArrayList<>();
    columns.add(ColumnDefinition.nameColumn());
    columns.addAll(List.of(own));
    columns.add(ColumnDefinition.ageColumn());
    columns.add(CONTAINERS);
    columns.add(IMAGES);
    return columns;
  }

  /**
   * The row of a workload: its name, {@code own} cells, its age, then the containers and images
   * of {@code podTemplate} (a PodTemplateSpec) and the {@code extra} wide cells (the selector).
   */
  static TableRow row(JsonNode object, Instant now, List<Object> own, JsonNode podTemplate, Object... extra) {
    List<Object> cells = new ArrayList<>();
    cells.add(Cells.name(object));
    cells.addAll(own);
    cells.add(Cells.age(object, now));
    cells.add(containerField(podTemplate, "name"));
    cells.add(containerField(podTemplate, "image"));
    cells.addAll(List.of(extra));
    return new TableRow(cells, List.of());
  }

  /**
   * One field of each container of {@code podTemplate} (a PodTemplateSpec), comma-joined in
   * order (kube's {@code layoutContainerCells}).
   */
  static String containerField(JsonNode podTemplate, String field) {
    List<String> values = new ArrayList<>();
    for (JsonNode c : Cells.elements(podTemplate.path("spec").path("containers"))) {
      values.add(Cells.text(c.path(field)));
    }
    return String.join(",", values);
  }
}

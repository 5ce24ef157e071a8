package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * ComponentStatuses: NAME, STATUS, MESSAGE, ERROR, from the {@code Healthy} condition as kube's
 * printer reads it: STATUS is {@code Healthy} when the condition is True, {@code Unhealthy}
 * when it is anything else, {@code Unknown} when there is no such condition. Stateless.
 */
public final class ComponentStatusTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Status", "Status of the component conditions"),
      ColumnDefinition.string("Message", "Message of the component conditions"),
      ColumnDefinition.string("Error", "Error of the component conditions"));

  public ComponentStatusTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode status, Instant now) {
    for (JsonNode c : Cells.elements(status.path("conditions"))) {
      if (c.path("type").asText().equals("Healthy")) {
        return TableRow.of(Cells.name(status), c.path("status").asText().equals("True") ? "Healthy" : "Unhealthy",
            Cells.text(c.path("message")), Cells.text(c.path("error")));
      }
    }
    return TableRow.of(Cells.name(status), "Unknown", "", "");
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * ResourceQuotas, in kube 1.32's column order: NAME, AGE, REQUEST, LIMIT. For each resource of
 * {@code status.hard}, sorted by name, {@code name: used/hard} ({@code used} is {@code 0} when
 * not reported); resources named {@code limits.*} go to LIMIT, every other to REQUEST; each
 * column joined by {@code ", "}. Quantities print as stored. Stateless.
 */
public final class ResourceQuotaTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.string("Request", "Used out of hard quota, for every resource but limits."),
      ColumnDefinition.string("Limit", "Used out of hard quota, for the limits.* resources."));

  public ResourceQuotaTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode quota, Instant now) {
    JsonNode hard = quota.path("status").path("hard");
    JsonNode used = quota.path("status").path("used");
    TreeSet<String> resources = new TreeSet<>();
    for (Iterator<String> it = hard.fieldNames(); it.hasNext(); ) {
      resources.add(it.next());
    }
    List<String> requests = new ArrayList<>();
    List<String> limits = new ArrayList<>();
    for (String resource : resources) {
      String cell = resource + ": " + Cells.text(used.path(resource), "0") + "/" + Cells.text(hard.path(resource), "0");
      (resource.startsWith("limits.") ? limits : requests).add(cell);
    }
    return TableRow.of(Cells.name(quota), Cells.age(quota, now), String.join(", ", requests), String.join(", ", limits));
  }
}

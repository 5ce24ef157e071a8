package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * apiregistration.k8s.io/v1 APIServices: NAME, SERVICE, AVAILABLE, AGE, as kube-aggregator's
 * REST prints them. SERVICE is {@code Local} for an APIService this server serves itself, else
 * {@code <namespace>/<name>}; AVAILABLE is the Available condition's status, followed by its
 * reason in parentheses when it is not True, or {@code Unknown} without the condition.
 * Stateless.
 */
public final class APIServiceTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Service", "The reference to the service that hosts this API endpoint."),
      ColumnDefinition.string("Available", "Whether this service is available."),
      ColumnDefinition.ageColumn());

  public APIServiceTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode apiService, Instant now) {
    JsonNode service = apiService.path("spec").path("service");
    String serviceCell = service.isObject()
        ? service.path("namespace").asText("") + "/" + service.path("name").asText("") : "Local";
    return TableRow.of(Cells.name(apiService), serviceCell, available(apiService.path("status").path("conditions")),
        Cells.age(apiService, now));
  }

  private static String available(JsonNode conditions) {
    for (JsonNode c : conditions) {
      if (c.path("type").asText("").equals("Available")) {
        String status = c.path("status").asText("");
        String reason = c.path("reason").asText("");
        return status.equals("True") || reason.isEmpty() ? status : status + " (" + reason + ")";
      }
    }
    return "Unknown";
  }
}

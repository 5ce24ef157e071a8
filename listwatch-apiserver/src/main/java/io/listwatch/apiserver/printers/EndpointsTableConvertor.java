package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * core/v1 Endpoints: NAME, ENDPOINTS, AGE. ENDPOINTS lists the ready addresses of every subset,
 * as {@code ip:port} once per port ({@code [ip]:port} for IPv6), or the bare IPs of a subset
 * without ports; the first three, then {@code + N more...}; {@code <none>} without subsets.
 * Stateless.
 */
public final class EndpointsTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Endpoints", "The ready addresses (and ports) behind the service."),
      ColumnDefinition.ageColumn());

  public EndpointsTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode ep, Instant now) {
    List<JsonNode> subsets = Cells.elements(ep.path("subsets"));
    String endpoints = "<none>";
    if (!subsets.isEmpty()) {
      List<String> all = new ArrayList<>();
      for (JsonNode subset : subsets) {
        List<JsonNode> addresses = Cells.elements(subset.path("addresses"));
        List<JsonNode> ports = Cells.elements(subset.path("ports"));
        if (ports.isEmpty()) {
          addresses.forEach(a -> all.add(Cells.text(a.path("ip"))));
        }
        for (JsonNode port : ports) {
          for (JsonNode a : addresses) {
            String ip = Cells.text(a.path("ip"));
            all.add((ip.contains(":") ? "[" + ip + "]" : ip) + ":" + Cells.integer(port.path("port"), 0));
          }
        }
      }
      endpoints = Cells.firstThree(all);
    }
    return TableRow.of(Cells.name(ep), endpoints, Cells.age(ep, now));
  }
}

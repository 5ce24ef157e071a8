package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * discovery.k8s.io/v1 EndpointSlices: NAME, ADDRESSTYPE, PORTS (each port's number, else its
 * name, else {@code *}), ENDPOINTS (every address of every endpoint), AGE. Ports and endpoints
 * show the first three, then {@code + N more...}, and {@code <unset>} when there are none.
 * Stateless.
 */
public final class EndpointSliceTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("AddressType", "The kind of address the slice holds (IPv4, IPv6, FQDN)."),
      ColumnDefinition.string("Ports", "The ports of the slice."),
      ColumnDefinition.string("Endpoints", "The addresses of the slice's endpoints."),
      ColumnDefinition.ageColumn());

  public EndpointSliceTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode slice, Instant now) {
    List<String> ports = new ArrayList<>();
    for (JsonNode p : Cells.elements(slice.path("ports"))) {
      ports.add(p.path("port").isIntegralNumber() ? Long.toString(p.path("port").longValue())
          : p.path("name").isTextual() ? p.path("name").textValue() : "*");
    }
    List<String> addresses = new ArrayList<>();
    for (JsonNode e : Cells.elements(slice.path("endpoints"))) {
      Cells.elements(e.path("addresses")).forEach(a -> addresses.add(Cells.text(a)));
    }
    return TableRow.of(Cells.name(slice), Cells.text(slice.path("addressType")), orUnset(ports), orUnset(addresses),
        Cells.age(slice, now));
  }

  private static String orUnset(List<String> items) {
    return items.isEmpty() ? "<unset>" : Cells.firstThree(items);
  }
}

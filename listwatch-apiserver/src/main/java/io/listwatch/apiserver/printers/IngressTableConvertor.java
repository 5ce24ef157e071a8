package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * networking.k8s.io/v1 Ingresses: NAME, CLASS ({@code <none>} when unset), HOSTS, ADDRESS,
 * PORTS, AGE. HOSTS lists the rules' hosts, the first three and then {@code + N more...}
 * counting the rules after them, or {@code *} when no rule names a host. ADDRESS is the load
 * balancer's ingress IPs or host names, sorted and each once. PORTS is {@code 80, 443} with
 * TLS and {@code 80} without. Stateless.
 */
public final class IngressTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Class", "The ingress class that serves this ingress."),
      ColumnDefinition.string("Hosts", "The hosts the rules match."),
      ColumnDefinition.string("Address", "Where the load balancer is reachable."),
      ColumnDefinition.string("Ports", "The ports the ingress serves."),
      ColumnDefinition.ageColumn());

  public IngressTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode ing, Instant now) {
    JsonNode spec = ing.path("spec");
    JsonNode className = spec.path("ingressClassName");
    TreeSet<String> addresses = new TreeSet<>();
    for (JsonNode i : Cells.elements(ing.path("status").path("loadBalancer").path("ingress"))) {
      String ip = Cells.text(i.path("ip"));
      String host = Cells.text(i.path("hostname"));
      if (!ip.isEmpty()) {
        addresses.add(ip);
      } else if (!host.isEmpty()) {
        addresses.add(host);
      }
    }
    return TableRow.of(Cells.name(ing), className.isTextual() ? className.textValue() : "<none>",
        hosts(Cells.elements(spec.path("rules"))), String.join(",", addresses),
        Cells.elements(spec.path("tls")).isEmpty() ? "80" : "80, 443", Cells.age(ing, now));
  }

  private static String hosts(List<JsonNode> rules) {
    List<String> hosts = new ArrayList<>();
    boolean more = false;
    for (JsonNode rule : rules) {
      if (hosts.size() == 3) {
        more = true;
        break;
      }
      String host = Cells.text(rule.path("host"));
      if (!host.isEmpty()) {
        hosts.add(host);
      }
    }
    if (hosts.isEmpty()) {
      return "*";
    }
    return more ? String.join(",", hosts) + " + " + (rules.size() - 3) + " more..." : String.join(",", hosts);
  }
}

package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Services: NAME, TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; with {@code -o wide} SELECTOR.
 * EXTERNAL-IP follows kube's printer: the external IPs for ClusterIP and NodePort services,
 * the load balancer's ingress IPs or host names (then the external IPs) or {@code <pending>}
 * for LoadBalancer, the external name for ExternalName. The type defaults to ClusterIP and a
 * port's protocol to TCP, as kube's defaulting sets them. Stateless.
 */
public final class ServiceTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(
      ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Type", "How the service is exposed."),
      ColumnDefinition.string("Cluster-IP", "The service's cluster IP address."),
      ColumnDefinition.string("External-IP", "Addresses the service is reachable at from outside the cluster."),
      ColumnDefinition.string("Port(s)", "The service's ports."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.wide("Selector", "The labels of the pods the service routes to."));

  public ServiceTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode svc, Instant now) {
    JsonNode spec = svc.path("spec");
    String type = Cells.text(spec.path("type"), "ClusterIP");
    List<JsonNode> clusterIps = Cells.elements(spec.path("clusterIPs"));
    String clusterIp = !clusterIps.isEmpty() ? Cells.text(clusterIps.getFirst())
        : Cells.text(spec.path("clusterIP"), "<none>");
    List<String> ports = new ArrayList<>();
    for (JsonNode p : Cells.elements(spec.path("ports"))) {
      long port = Cells.integer(p.path("port"), 0);
      long nodePort = Cells.integer(p.path("nodePort"), 0);
      String protocol = Cells.text(p.path("protocol"), "TCP");
      ports.add(nodePort > 0 ? port + ":" + nodePort + "/" + protocol : port + "/" + protocol);
    }
    return TableRow.of(Cells.name(svc), type, clusterIp, externalIp(svc, type),
        ports.isEmpty() ? "<none>" : String.join(",", ports), Cells.age(svc, now),
        Cells.labels(spec.path("selector")));
  }

  private static String externalIp(JsonNode svc, String type) {
    List<String> externalIps = new ArrayList<>();
    Cells.elements(svc.path("spec").path("externalIPs")).forEach(ip -> externalIps.add(Cells.text(ip)));
    switch (type) {
      case "ClusterIP", "NodePort" -> {
        return externalIps.isEmpty() ? "<none>" : String.join(",", externalIps);
      }
      case "LoadBalancer" -> {
        TreeSet<String> ingress = new TreeSet<>();
        for (JsonNode i : Cells.elements(svc.path("status").path("loadBalancer").path("ingress"))) {
          String ip = Cells.text(i.path("ip"));
          String host = Cells.text(i.path("hostname"));
          if (!ip.isEmpty()) {
            ingress.add(ip);
          } else if (!host.isEmpty()) {
            ingress.add(host);
          }
        }
        List<String> all = new ArrayList<>(ingress);
        all.addAll(externalIps);
        return all.isEmpty() ? "<pending>" : String.join(",", all);
      }
      case "ExternalName" -> {
        return Cells.text(svc.path("spec").path("externalName"));
      }
      default -> {
        return "<unknown>";
      }
    }
  }
}

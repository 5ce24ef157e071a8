package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import io.listwatch.apiserver.validation.IpAddresses;
import java.util.List;

/**
 * Endpoints (core/v1), kube's defaults ({@code SetDefaults_EndpointPort}: each port of each
 * subset is {@code protocol: TCP} unless it says otherwise) and {@code ValidateEndpoints}
 * (create and update alike): each subset has addresses or not-ready addresses; each address an
 * IP that is not special (unspecified, loopback, link-local), its {@code hostname} a DNS-1123
 * label and its {@code nodeName} a DNS-1123 subdomain; each port named (a DNS-1123 label,
 * required when there are several), numbered 1 to 65535, with a supported protocol and a
 * qualified {@code appProtocol}. Stateless.
 */
final class EndpointsStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    for (JsonNode subset : obj.path("subsets")) {
      for (JsonNode port : subset.path("ports")) {
        if (port instanceof ObjectNode p) {
          Fields.defaultIfAbsent(p, "protocol", "TCP");
        }
      }
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode subsets = obj.path("subsets");
    for (int i = 0; i < subsets.size(); i++) {
      JsonNode subset = subsets.get(i);
      String at = "subsets[" + i + "]";
      if (subset.path("addresses").isEmpty() && subset.path("notReadyAddresses").isEmpty()) {
        errors.add(FieldErrors.required(at, "must specify `addresses` or `notReadyAddresses`"));
      }
      addresses(subset.path("addresses"), at + ".addresses", errors);
      addresses(subset.path("notReadyAddresses"), at + ".notReadyAddresses", errors);
      JsonNode ports = subset.path("ports");
      for (int p = 0; p < ports.size(); p++) {
        JsonNode port = ports.get(p);
        String pat = at + ".ports[" + p + "]";
        String name = port.path("name").asText("");
        if (ports.size() > 1 && name.isEmpty()) {
          errors.add(FieldErrors.required(pat + ".name", ""));
        } else if (!name.isEmpty()) {
          PodSpecValidation.label(name, pat + ".name", errors);
        }
        PortRules.number(port.path("port"), pat + ".port", errors);
        PortRules.protocol(port.path("protocol"), pat + ".protocol", errors);
        PortRules.appProtocol(port.path("appProtocol"), pat + ".appProtocol", errors);
      }
    }
  }

  /** kube's {@code validateEndpointAddress} of each address of a list. */
  private static void addresses(JsonNode list, String path, List<Status.Cause> errors) {
    for (int a = 0; a < list.size(); a++) {
      JsonNode address = list.get(a);
      String at = path + "[" + a + "]";
      String ip = address.path("ip").asText("");
      IpAddresses.checkIp(at + ".ip", ip, errors);
      String hostname = address.path("hostname").asText("");
      if (!hostname.isEmpty()) {
        PodSpecValidation.label(hostname, at + ".hostname", errors);
      }
      EndpointSliceStrategy.nodeName(address.path("nodeName"), at + ".nodeName", errors);
      IpAddresses.checkNonSpecial(at + ".ip", ip, errors);
    }
  }
}

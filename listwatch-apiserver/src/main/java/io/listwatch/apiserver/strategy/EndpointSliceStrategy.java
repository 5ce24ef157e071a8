package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import io.listwatch.apiserver.validation.IpAddresses;
import io.listwatch.apiserver.validation.ObjectMetaValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * EndpointSlices (discovery.k8s.io/v1), kube's defaults ({@code SetDefaults_EndpointPort}: a
 * port's {@code name} is {@code ""} and its {@code protocol} TCP unless given) and
 * {@code ValidateEndpointSlice}: {@code addressType} required, one of FQDN, IPv4 and IPv6, and
 * immutable on update; at most 1000 endpoints, each with 1 to 100 addresses of the slice's
 * type (an IP not special, or a fully qualified domain name), its {@code nodeName} a DNS-1123
 * subdomain, its {@code hostname} a DNS-1123 label, at most 16 {@code deprecatedTopology}
 * labels and at most 8 zone hints, each named once; at most 20000 ports, each name a DNS-1123
 * label unique in the slice, each protocol supported, each {@code appProtocol} a qualified
 * name (kube checks no port number here). Stateless.
 */
final class EndpointSliceStrategy implements RestStrategy {

  private static final List<String> ADDRESS_TYPES = List.of("FQDN", "IPv4", "IPv6");
  private static final int MAX_ENDPOINTS = 1000;
  private static final int MAX_ADDRESSES = 100;
  private static final int MAX_PORTS = 20000;
  private static final int MAX_TOPOLOGY_LABELS = 16;
  private static final int MAX_ZONE_HINTS = 8;

  @Override
  public void defaults(ObjectNode obj) {
    for (JsonNode port : obj.path("ports")) {
      if (port instanceof ObjectNode p) {
        if (!p.hasNonNull("name")) {
          p.put("name", "");
        }
        Fields.defaultIfAbsent(p, "protocol", "TCP");
      }
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String type = obj.path("addressType").asText("");
    if (type.isEmpty()) {
      errors.add(FieldErrors.required("addressType", ""));
    } else if (!ADDRESS_TYPES.contains(type)) {
      errors.add(FieldErrors.notSupported("addressType", type, ADDRESS_TYPES));
    }
    endpoints(obj.path("endpoints"), type, errors);
    ports(obj.path("ports"), errors);
    if (old != null && !type.equals(old.path("addressType").asText(""))) {
      errors.add(FieldErrors.invalid("addressType", type, "field is immutable"));
    }
  }

  private static void endpoints(JsonNode list, String type, List<Status.Cause> errors) {
    if (list.size() > MAX_ENDPOINTS) {
      errors.add(FieldErrors.tooMany("endpoints", list.size(), MAX_ENDPOINTS));
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode endpoint = list.get(i);
      String at = "endpoints[" + i + "]";
      JsonNode addresses = endpoint.path("addresses");
      if (addresses.isEmpty()) {
        errors.add(FieldErrors.required(at + ".addresses", "must contain at least 1 address"));
      } else if (addresses.size() > MAX_ADDRESSES) {
        errors.add(FieldErrors.tooMany(at + ".addresses", addresses.size(), MAX_ADDRESSES));
      }
      for (int a = 0; a < addresses.size(); a++) {
        address(addresses.get(a).asText(""), type, at + ".addresses[" + a + "]", errors);
      }
      nodeName(endpoint.path("nodeName"), at + ".nodeName", errors);
      JsonNode topology = endpoint.path("deprecatedTopology");
      if (topology.size() > MAX_TOPOLOGY_LABELS) {
        errors.add(FieldErrors.tooMany(at + ".deprecatedTopology", topology.size(), MAX_TOPOLOGY_LABELS));
      }
      ObjectMetaValidator.validateLabels(endpoint.get("deprecatedTopology"), at + ".deprecatedTopology", errors);
      if (endpoint.path("hostname").isTextual()) {
        PodSpecValidation.label(endpoint.get("hostname").asText(), at + ".hostname", errors);
      }
      hints(endpoint.path("hints").path("forZones"), at + ".hints.forZones", errors);
    }
  }

  private static void address(String address, String type, String path, List<Status.Cause> errors) {
    switch (type) {
      case "IPv4" -> {
        IpAddresses.checkIpv4(path, address, errors);
        IpAddresses.checkNonSpecial(path, address, errors);
      }
      case "IPv6" -> {
        IpAddresses.checkIpv6(path, address, errors);
        IpAddresses.checkNonSpecial(path, address, errors);
      }
      case "FQDN" -> {
        if (address.isEmpty()) {
          errors.add(FieldErrors.required(path, ""));
        } else {
          for (String msg : NameSyntax.isDns1123Subdomain(address)) {
            errors.add(FieldErrors.invalid(path, address, msg));
          }
          if (!address.contains(".")) {
            errors.add(FieldErrors.invalid(path, address, "should be a domain with at least two segments separated by dots"));
          }
        }
      }
      default -> {
      }
    }
  }

  /** kube's {@code validateHints}: at most 8 zones, each named once with a label value. */
  private static void hints(JsonNode zones, String path, List<Status.Cause> errors) {
    if (zones.size() > MAX_ZONE_HINTS) {
      errors.add(FieldErrors.tooMany(path, zones.size(), MAX_ZONE_HINTS));
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < zones.size(); i++) {
      String name = zones.get(i).path("name").asText("");
      String at = path + "[" + i + "].name";
      if (!names.add(name)) {
        errors.add(FieldErrors.duplicate(at, name));
      }
      for (String msg : NameSyntax.isValidLabelValue(name)) {
        errors.add(FieldErrors.invalid(at, name, msg));
      }
    }
  }

  /** kube's {@code ValidateNodeName} of an optional {@code nodeName}: a DNS-1123 subdomain. */
  static void nodeName(JsonNode nodeName, String path, List<Status.Cause> errors) {
    if (nodeName.isTextual()) {
      for (String msg : NameSyntax.isDns1123Subdomain(nodeName.asText())) {
        errors.add(FieldErrors.invalid(path, nodeName.asText(), msg));
      }
    }
  }

  private static void ports(JsonNode list, List<Status.Cause> errors) {
    if (list.size() > MAX_PORTS) {
      errors.add(FieldErrors.tooMany("ports", list.size(), MAX_PORTS));
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode port = list.get(i);
      String at = "ports[" + i + "]";
      String name = port.path("name").asText("");
      if (!name.isEmpty()) {
        PodSpecValidation.label(name, at + ".name", errors);
      }
      if (!names.add(name)) {
        errors.add(FieldErrors.duplicate(at + ".name", name));
      }
      if (!port.hasNonNull("protocol")) {
        errors.add(FieldErrors.required(at + ".protocol", ""));
      } else {
        PortRules.protocol(port.get("protocol"), at + ".protocol", errors);
      }
      PortRules.appProtocol(port.path("appProtocol"), at + ".appProtocol", errors);
    }
  }
}

package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.absent;
import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Services (core/v1), kube's defaults: {@code type: ClusterIP}, {@code sessionAffinity: None},
 * {@code internalTrafficPolicy: Cluster} except for ExternalName, ports' {@code protocol: TCP}
 * and {@code targetPort} (the port). Not done: what kube allocates rather than defaults (a
 * cluster IP and IP families).
 */
final class ServiceStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "type", "ClusterIP");
    defaultIfAbsent(spec, "sessionAffinity", "None");
    if (!spec.path("type").asText().equals("ExternalName")) {
      defaultIfAbsent(spec, "internalTrafficPolicy", "Cluster");
    }
    for (JsonNode p : spec.path("ports")) {
      if (p instanceof ObjectNode port) {
        defaultIfAbsent(port, "protocol", "TCP");
        if (absent(port, "targetPort") && port.has("port")) {
          port.set("targetPort", port.get("port").deepCopy());
        }
      }
    }
  }

  /**
   * kube's {@code ValidateService}, as far as this server checks it: each port's name (required
   * when there are several, a DNS-1123 label, unique) and number (1 to 65535).
   */
  @Override
  public void validate(ObjectNode obj, ObjectNode old, java.util.List<io.listwatch.api.Status.Cause> errors) {
    com.fasterxml.jackson.databind.JsonNode ports = obj.path("spec").path("ports");
    if (!ports.isArray()) {
      return;
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      com.fasterxml.jackson.databind.JsonNode p = ports.get(i);
      String at = "spec.ports[" + i + "]";
      String name = p.path("name").asText("");
      if (name.isEmpty()) {
        if (ports.size() > 1) {
          errors.add(io.listwatch.apiserver.validation.FieldErrors.required(at + ".name", ""));
        }
      } else {
        ItemNames.check(name, at + ".name", names, errors);
      }
      com.fasterxml.jackson.databind.JsonNode port = p.path("port");
      if (port.isIntegralNumber() && (port.longValue() < 1 || port.longValue() > 65535)) {
        errors.add(io.listwatch.apiserver.validation.FieldErrors.invalid(at + ".port", port.longValue(),
            "must be between 1 and 65535, inclusive"));
      }
    }
  }
}

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
}

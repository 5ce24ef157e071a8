package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Endpoints (core/v1), kube's defaults ({@code SetDefaults_EndpointPort}): each port of each
 * subset is {@code protocol: TCP} unless it says otherwise. Stateless.
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
}

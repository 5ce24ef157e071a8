package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Quota of Services (kube's {@code serviceEvaluator}): each uses {@code services} and
 * {@code count/services}; a {@code NodePort} Service uses one {@code services.nodeports} per
 * port, a {@code LoadBalancer} one {@code services.loadbalancers} and a node port per port (only
 * the ports that name one when {@code allocateLoadBalancerNodePorts} is false). Creates and
 * updates are measured (the type can change). No scopes, no constraints. Stateless.
 */
public final class ServiceEvaluator implements QuotaEvaluator {

  private static final String COUNT = QuotaEvaluator.objectCountName("", "services");
  private static final List<String> RESOURCES = List.of(COUNT, "services", "services.nodeports",
      "services.loadbalancers");

  @Override
  public String group() {
    return "";
  }

  @Override
  public String plural() {
    return "services";
  }

  @Override
  public boolean handlesUpdates() {
    return true;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    return input.stream().filter(RESOURCES::contains).toList();
  }

  @Override
  public ResourceList usage(JsonNode service, Instant now) {
    JsonNode spec = service.path("spec");
    int ports = spec.path("ports").size();
    long nodePorts = 0;
    long loadBalancers = 0;
    switch (spec.path("type").asText("")) {
      case "NodePort" -> nodePorts = ports;
      case "LoadBalancer" -> {
        loadBalancers = 1;
        nodePorts = spec.path("allocateLoadBalancerNodePorts").asBoolean(true) ? ports
            : java.util.stream.StreamSupport.stream(spec.path("ports").spliterator(), false)
                .filter(p -> p.path("nodePort").asInt(0) != 0).count();
      }
      default -> {
      }
    }
    return ResourceList.of(Map.of(COUNT, Quantity.ofCount(1), "services", Quantity.ofCount(1),
        "services.nodeports", Quantity.ofCount(nodePorts), "services.loadbalancers", Quantity.ofCount(loadBalancers)));
  }
}

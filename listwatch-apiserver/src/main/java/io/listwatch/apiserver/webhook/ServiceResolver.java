package io.listwatch.apiserver.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.admission.Listers;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Resolves a Service a webhook is reached through to one address to call, as kube-apiserver does
 * with aggregator routing on (kube's {@code ResolveEndpoint}): the Service's port of that number,
 * then an address of a subset of the Service's Endpoints that has a port of the same name,
 * chosen at random; an {@code ExternalName} Service resolves to its external name. This server
 * has no cluster network to route a cluster IP, so the Endpoints are what is called (a test
 * points them at {@code 127.0.0.1}).
 *
 * <p>Reads the watch cache through {@link Listers}. Thread-safe.
 */
public final class ServiceResolver {

  private final Listers listers;

  public ServiceResolver(Listers listers) {
    this.listers = listers;
  }

  /**
   * The {@code https} URI to call for {@code service} (scheme, host and port; the path is the
   * caller's).
   *
   * @throws WebhookCallException with kube's message when the Service or its port is missing, its
   *     type cannot be called, or no endpoint is ready
   */
  public URI resolve(WebhookClientConfig.ServiceReference service) {
    ObjectNode svc = listers.get("", "services", service.namespace(), service.name())
        .orElseThrow(() -> new WebhookCallException("service \"" + service.name() + "\" not found"));
    JsonNode spec = svc.path("spec");
    String type = spec.path("type").asText("ClusterIP");
    if (type.equals("ExternalName")) {
      return URI.create("https://" + hostPort(spec.path("externalName").asText(), service.port()));
    }
    if (!List.of("ClusterIP", "NodePort", "LoadBalancer").contains(type)) {
      throw new WebhookCallException("unsupported service type \"" + type + "\"");
    }
    JsonNode servicePort = null;
    for (JsonNode p : spec.path("ports")) {
      if (p.path("port").asInt() == service.port()) {
        servicePort = p;
        break;
      }
    }
    if (servicePort == null) {
      throw new WebhookCallException("no service port " + service.port() + " found for service \"" + service.name()
          + "\"");
    }
    String portName = servicePort.path("name").asText("");
    ObjectNode endpoints = listers.get("", "endpoints", service.namespace(), service.name())
        .orElseThrow(() -> new WebhookCallException("endpoints \"" + service.name() + "\" not found"));
    for (JsonNode subset : endpoints.path("subsets")) {
      for (JsonNode port : subset.path("ports")) {
        if (!port.path("name").asText("").equals(portName) || subset.path("addresses").isEmpty()) {
          continue;
        }
        List<String> ips = new ArrayList<>();
        subset.path("addresses").forEach(a -> ips.add(a.path("ip").asText()));
        String ip = ips.get(ThreadLocalRandom.current().nextInt(ips.size()));
        return URI.create("https://" + hostPort(ip, port.path("port").asInt()));
      }
    }
    throw new WebhookCallException("no endpoints available for service \"" + service.name() + "\"");
  }

  private static String hostPort(String host, int port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What a Service's type and fields imply, as kube's service helpers say it
 * ({@code pkg/api/service/util.go} and the Service REST storage's {@code needs*}): the one
 * place the strategy, its validation and the allocator ({@code apiserver.allocation}) ask.
 * Each takes a Service's {@code spec} as JSON. Stateless.
 */
public final class ServiceSpecs {

  private ServiceSpecs() {
  }

  /** kube's {@code needsClusterIP}: every type but ExternalName (a headless Service's "None" counts). */
  public static boolean needsClusterIp(JsonNode spec) {
    return !spec.path("type").asText("").equals("ExternalName");
  }

  /** kube's {@code isHeadlessService}: {@code clusterIPs} is exactly {@code ["None"]}. */
  public static boolean headless(JsonNode spec) {
    JsonNode ips = spec.path("clusterIPs");
    return ips.size() == 1 && ips.get(0).asText("").equals("None");
  }

  /** Whether the type has node ports at all: NodePort or LoadBalancer. */
  public static boolean hasNodePorts(JsonNode spec) {
    String type = spec.path("type").asText("");
    return type.equals("NodePort") || type.equals("LoadBalancer");
  }

  /** kube's {@code needsNodePort}: NodePort, and LoadBalancer unless it allocates none. */
  public static boolean needsNodePort(JsonNode spec) {
    String type = spec.path("type").asText("");
    return type.equals("NodePort")
        || (type.equals("LoadBalancer") && spec.path("allocateLoadBalancerNodePorts").asBoolean(true));
  }

  /** kube's {@code NeedsHealthCheck}: a LoadBalancer with {@code externalTrafficPolicy: Local}. */
  public static boolean needsHealthCheck(JsonNode spec) {
    return spec.path("type").asText("").equals("LoadBalancer")
        && spec.path("externalTrafficPolicy").asText("").equals("Local");
  }

  /** kube's {@code ExternallyAccessible}: NodePort, LoadBalancer, or ClusterIP with external IPs. */
  public static boolean externallyAccessible(JsonNode spec) {
    String type = spec.path("type").asText("");
    return type.equals("LoadBalancer") || type.equals("NodePort")
        || (type.equals("ClusterIP") && !spec.path("externalIPs").isEmpty());
  }

  /** The text of each item of a JSON list ({@code clusterIPs}, {@code ipFamilies}); empty when absent. */
  public static List<String> strings(JsonNode list) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : list) {
      out.add(n.asText(""));
    }
    return out;
  }
}

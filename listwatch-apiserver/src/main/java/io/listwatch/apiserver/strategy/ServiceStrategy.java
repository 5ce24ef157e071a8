package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.absent;
import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Services (core/v1), kube's {@code SetDefaults_Service} and service strategy
 * ({@code pkg/registry/core/service/strategy.go}), with the update half of its REST storage
 * that needs no allocator ({@code patchAllocatedValues}).
 *
 * <p>Defaults: {@code type: ClusterIP}, {@code sessionAffinity: None} (a ClientIP affinity gets
 * {@code timeoutSeconds: 10800}), ports' {@code protocol: TCP} and {@code targetPort} (the
 * port), {@code externalTrafficPolicy: Cluster} for externally accessible services,
 * {@code internalTrafficPolicy: Cluster} for ClusterIP, NodePort and LoadBalancer,
 * {@code allocateLoadBalancerNodePorts: true} for LoadBalancer.
 *
 * <p>A create drops the status and fills {@code clusterIPs} from {@code clusterIP}. An update
 * keeps the stored status and allocated values the client left out (cluster IPs, node ports
 * by port name, the health check node port), syncs {@code clusterIP} and {@code clusterIPs},
 * and drops what a type change leaves without use (kube's {@code dropTypeDependentFields}).
 * What is allocated (cluster IPs, IP families, node ports) is the allocator's
 * ({@code io.listwatch.apiserver.allocation}), after validation. Stateless.
 */
final class ServiceStrategy implements RestStrategy {

  /** kube's {@code DefaultClientIPServiceAffinitySeconds}. */
  private static final int DEFAULT_AFFINITY_SECONDS = 10800;

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "sessionAffinity", "None");
    String affinity = spec.path("sessionAffinity").asText("");
    if (affinity.equals("None")) {
      spec.remove("sessionAffinityConfig");
    } else if (affinity.equals("ClientIP") && !spec.path("sessionAffinityConfig").path("clientIP")
        .path("timeoutSeconds").isNumber()) {
      spec.putObject("sessionAffinityConfig").putObject("clientIP").put("timeoutSeconds", DEFAULT_AFFINITY_SECONDS);
    }
    defaultIfAbsent(spec, "type", "ClusterIP");
    for (JsonNode p : spec.path("ports")) {
      if (p instanceof ObjectNode port) {
        defaultIfAbsent(port, "protocol", "TCP");
        JsonNode target = port.get("targetPort");
        if ((absent(port, "targetPort") || (target.isIntegralNumber() && target.asLong() == 0)) && port.has("port")) {
          port.set("targetPort", port.get("port").deepCopy());
        }
      }
    }
    if (ServiceSpecs.externallyAccessible(spec)) {
      defaultIfAbsent(spec, "externalTrafficPolicy", "Cluster");
    }
    String type = spec.path("type").asText("");
    if (type.equals("ClusterIP") || type.equals("NodePort") || type.equals("LoadBalancer")) {
      defaultIfAbsent(spec, "internalTrafficPolicy", "Cluster");
    }
    if (type.equals("LoadBalancer") && !spec.hasNonNull("allocateLoadBalancerNodePorts")) {
      spec.put("allocateLoadBalancerNodePorts", true);
    }
    if (type.equals("LoadBalancer")) { // kube 1.32's LoadBalancerIPMode (GA): an address's mode is VIP
      for (JsonNode ingress : obj.path("status").path("loadBalancer").path("ingress")) {
        if (ingress instanceof ObjectNode entry && !entry.path("ip").asText("").isEmpty() && absent(entry, "ipMode")) {
          entry.put("ipMode", "VIP");
        }
      }
    }
  }

  /**
   * kube's {@code ValidateServiceStatusUpdate}: the load balancer status
   * ({@code ValidateLoadBalancerStatus}, {@link LoadBalancerStatusValidation#service}), refused in
   * one 422.
   */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new java.util.ArrayList<>();
    LoadBalancerStatusValidation.service(obj.path("status").path("loadBalancer"),
        old.path("spec").path("type").asText(""), "status.loadBalancer", errors);
    StatusValidation.refuse("", "Service", obj, errors);
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.putObject("status").putObject("loadBalancer");
    ObjectNode spec = Fields.object(obj, "spec", false);
    if (spec != null && !spec.path("clusterIP").asText("").isEmpty() && spec.path("clusterIPs").isEmpty()) {
      spec.putArray("clusterIPs").add(spec.get("clusterIP").asText());
    }
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    JsonNode oldSpec = old.path("spec");
    if (spec == null) {
      return;
    }
    if (old.has("status")) {
      obj.set("status", old.get("status").deepCopy());
    } else {
      obj.remove("status");
    }
    patchAllocatedValues(spec, oldSpec);
    normalizeClusterIps(spec, oldSpec);
    dropTypeDependentFields(obj, spec, oldSpec);
  }

  /** What the client of an update left out of what the server allocated: kept from the stored object. */
  private static void patchAllocatedValues(ObjectNode spec, JsonNode oldSpec) {
    if (ServiceSpecs.needsClusterIp(oldSpec) && ServiceSpecs.needsClusterIp(spec)) {
      if (spec.path("clusterIP").asText("").isEmpty() && oldSpec.has("clusterIP")) {
        spec.set("clusterIP", oldSpec.get("clusterIP").deepCopy());
      }
      if (spec.path("clusterIPs").isEmpty() && !oldSpec.path("clusterIPs").isEmpty()) {
        spec.set("clusterIPs", oldSpec.get("clusterIPs").deepCopy());
      }
    }
    if (ServiceSpecs.needsNodePort(oldSpec) && ServiceSpecs.needsNodePort(spec)) {
      Set<Long> used = nodePorts(oldSpec);
      used.retainAll(nodePorts(spec));
      Map<String, Long> byName = new HashMap<>();
      for (JsonNode p : oldSpec.path("ports")) {
        byName.put(p.path("name").asText(""), p.path("nodePort").asLong(0));
      }
      for (JsonNode p : spec.path("ports")) {
        Long oldValue = byName.get(p.path("name").asText(""));
        if (p instanceof ObjectNode port && port.path("nodePort").asLong(0) == 0 && oldValue != null
            && oldValue != 0 && !used.contains(oldValue)) {
          port.put("nodePort", oldValue);
        }
      }
    }
    if (ServiceSpecs.needsHealthCheck(oldSpec) && ServiceSpecs.needsHealthCheck(spec)
        && spec.path("healthCheckNodePort").asLong(0) == 0 && oldSpec.has("healthCheckNodePort")) {
      spec.set("healthCheckNodePort", oldSpec.get("healthCheckNodePort").deepCopy());
    }
  }

  private static Set<Long> nodePorts(JsonNode spec) {
    Set<Long> used = new HashSet<>();
    for (JsonNode p : spec.path("ports")) {
      if (p.path("nodePort").asLong(0) != 0) {
        used.add(p.path("nodePort").asLong());
      }
    }
    return used;
  }

  /** kube's {@code NormalizeClusterIPs} of an update: what a client meant by changing one of the two fields. */
  private static void normalizeClusterIps(ObjectNode spec, JsonNode oldSpec) {
    String ip = spec.path("clusterIP").asText("");
    String oldIp = oldSpec.path("clusterIP").asText("");
    if (!oldSpec.path("clusterIPs").isEmpty() && spec.path("clusterIPs").isEmpty() && oldIp.equals(ip)) {
      spec.set("clusterIPs", oldSpec.get("clusterIPs").deepCopy());
    }
    if (!oldIp.equals(ip) && same(spec, oldSpec, "clusterIPs")) {
      if (!oldIp.isEmpty() && ip.isEmpty()) {
        spec.remove("clusterIPs");
      } else {
        spec.putArray("clusterIPs").add(ip);
      }
    }
  }

  private static boolean same(JsonNode spec, JsonNode oldSpec, String field) {
    JsonNode a = spec.path(field);
    JsonNode b = oldSpec.path(field);
    return zero(a) ? zero(b) : a.equals(b);
  }

  /** Whether {@code n} is Go's zero value: missing, null, empty, "" or 0. */
  private static boolean zero(JsonNode n) {
    return n.isMissingNode() || n.isNull() || (n.isContainerNode() && n.isEmpty())
        || (n.isTextual() && n.asText().isEmpty()) || (n.isNumber() && n.asLong() == 0);
  }

  /** kube's {@code dropTypeDependentFields}: what a type change leaves without use, unless the client changed it. */
  private static void dropTypeDependentFields(ObjectNode obj, ObjectNode spec, JsonNode oldSpec) {
    if (ServiceSpecs.needsClusterIp(oldSpec) && !ServiceSpecs.needsClusterIp(spec)) {
      if (same(spec, oldSpec, "clusterIPs") && same(spec, oldSpec, "clusterIP")) {
        spec.remove("clusterIP");
        spec.remove("clusterIPs");
      }
      if (same(spec, oldSpec, "ipFamilies")) {
        spec.remove("ipFamilies");
      }
      if (same(spec, oldSpec, "ipFamilyPolicy")) {
        spec.remove("ipFamilyPolicy");
      }
    }
    if (ServiceSpecs.needsNodePort(oldSpec) && !ServiceSpecs.needsNodePort(spec) && nodePortList(spec).equals(nodePortList(oldSpec))) {
      for (JsonNode p : spec.path("ports")) {
        if (p instanceof ObjectNode port) {
          port.remove("nodePort");
        }
      }
    }
    if (ServiceSpecs.needsHealthCheck(oldSpec) && !ServiceSpecs.needsHealthCheck(spec)
        && same(spec, oldSpec, "healthCheckNodePort")) {
      spec.remove("healthCheckNodePort");
    }
    boolean wasLoadBalancer = oldSpec.path("type").asText("").equals("LoadBalancer");
    boolean isLoadBalancer = spec.path("type").asText("").equals("LoadBalancer");
    if (wasLoadBalancer && !isLoadBalancer) {
      if (same(spec, oldSpec, "allocateLoadBalancerNodePorts")) {
        spec.remove("allocateLoadBalancerNodePorts");
      }
      if (same(spec, oldSpec, "loadBalancerClass")) {
        spec.remove("loadBalancerClass");
      }
    }
    if (ServiceSpecs.externallyAccessible(oldSpec) && !ServiceSpecs.externallyAccessible(spec)
        && same(spec, oldSpec, "externalTrafficPolicy")) {
      spec.remove("externalTrafficPolicy");
    }
    if (!isLoadBalancer) {
      Fields.object(obj, "status", true).putObject("loadBalancer");
    }
  }

  private static List<Long> nodePortList(JsonNode spec) {
    List<Long> out = new java.util.ArrayList<>();
    for (JsonNode p : spec.path("ports")) {
      out.add(p.path("nodePort").asLong(0));
    }
    return out;
  }

  /** kube's {@code ValidateService} on create, {@code ValidateServiceUpdate} on update ({@link ServiceValidation}). */
  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    if (old != null) {
      ServiceValidation.validateUpdate(obj.path("spec"), old.path("spec"), errors);
    }
    ServiceValidation.validate(obj, errors);
  }
}

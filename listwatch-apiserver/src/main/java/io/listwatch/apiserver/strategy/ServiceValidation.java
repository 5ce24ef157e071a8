package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import io.listwatch.apiserver.validation.IpAddresses;
import io.listwatch.apiserver.validation.ObjectMetaValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube's {@code ValidateService} and {@code ValidateServiceUpdate}
 * ({@code pkg/apis/core/validation}), in kube's order, with its paths and messages: ports
 * (names, numbers, protocols, target ports, node ports only where the type has them, no
 * port+protocol twice), the type and what each type requires or forbids (ExternalName's
 * {@code externalName}, headless rules), the selector's label syntax, session affinity, the
 * cluster IPs and IP families and their consistency, external IPs, traffic policies, and on
 * update the cluster IPs and IP families that may not change once set; a LoadBalancer's source
 * ranges (the field, or else kube's annotation) and its class (a qualified name, for
 * LoadBalancers only, fixed while the service stays a LoadBalancer). Stateless.
 */
final class ServiceValidation {

  static final List<String> TYPES = List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
  private static final List<String> AFFINITIES = List.of("ClientIP", "None");
  private static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
  private static final List<String> IP_FAMILIES = List.of("IPv4", "IPv6");
  private static final List<String> IP_FAMILY_POLICIES = List.of("PreferDualStack", "RequireDualStack", "SingleStack");
  /** kube's {@code MaxClientIPServiceAffinitySeconds}. */
  private static final long MAX_AFFINITY_SECONDS = 86400;

  private ServiceValidation() {
  }

  /** kube's annotation that lists a LoadBalancer's source ranges where the field does not. */
  private static final String SOURCE_RANGES_ANNOTATION = "service.beta.kubernetes.io/load-balancer-source-ranges";

  /** {@code ValidateService} of {@code service} (a create, and the second half of an update). */
  static void validate(JsonNode service, List<Status.Cause> errors) {
    JsonNode spec = service.path("spec");
    String type = spec.path("type").asText("");
    boolean headless = ServiceSpecs.headless(spec);
    JsonNode ports = spec.path("ports");
    if (ports.isEmpty() && !headless && !type.equals("ExternalName")) {
      errors.add(FieldErrors.required("spec.ports", ""));
    }
    switch (type) {
      case "LoadBalancer", "NodePort" -> {
        if (headless) {
          errors.add(FieldErrors.invalid("spec.clusterIPs[0]", "None",
              "may not be set to 'None' for " + type + " services"));
        }
      }
      case "ExternalName" -> externalName(spec, errors);
      default -> {
      }
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      port(ports.get(i), "spec.ports[" + i + "]", ports.size() > 1, names, errors);
    }
    if (spec.has("selector") && !spec.get("selector").isNull()) {
      ObjectMetaValidator.validateLabels(spec.get("selector"), "spec.selector", errors);
    }
    sessionAffinity(spec, errors);
    clusterIps(spec, errors);
    JsonNode externalIps = spec.path("externalIPs");
    for (int i = 0; i < externalIps.size(); i++) {
      String path = "spec.externalIPs[" + i + "]";
      String ip = externalIps.get(i).asText("");
      if (IpAddresses.checkIp(path, ip, errors)) {
        IpAddresses.checkNonSpecial(path, ip, errors);
      }
    }
    if (type.isEmpty()) {
      errors.add(FieldErrors.required("spec.type", ""));
    } else if (!TYPES.contains(type)) {
      errors.add(FieldErrors.notSupported("spec.type", type, TYPES));
    }
    if (type.equals("ClusterIP")) {
      for (int i = 0; i < ports.size(); i++) {
        if (ports.get(i).path("nodePort").asLong(0) != 0) {
          errors.add(FieldErrors.forbidden("spec.ports[" + i + "].nodePort", "may not be used when `type` is 'ClusterIP'"));
        }
      }
    }
    duplicatePorts(ports, errors);
    loadBalancerFields(spec, service.path("metadata").path("annotations"), type, errors);
    loadBalancerClass(spec, errors);
    trafficPolicies(spec, type, errors);
  }

  private static void externalName(JsonNode spec, List<Status.Cause> errors) {
    if (!spec.path("clusterIPs").isEmpty()) {
      errors.add(FieldErrors.forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
    }
    if (!spec.path("ipFamilies").isEmpty()) {
      errors.add(FieldErrors.forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
    }
    if (present(spec, "ipFamilyPolicy")) {
      errors.add(FieldErrors.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
    }
    String cname = spec.path("externalName").asText("");
    if (cname.endsWith(".")) {
      cname = cname.substring(0, cname.length() - 1);
    }
    if (cname.isEmpty()) {
      errors.add(FieldErrors.required("spec.externalName", ""));
    } else {
      for (String msg : NameSyntax.isDns1123Subdomain(cname)) {
        errors.add(FieldErrors.invalid("spec.externalName", cname, msg));
      }
    }
  }

  private static boolean present(JsonNode obj, String field) {
    return obj.has(field) && !obj.get(field).isNull();
  }

  /** kube's {@code validateServicePort}. */
  private static void port(JsonNode p, String at, boolean requireName, Set<String> names, List<Status.Cause> errors) {
    String name = p.path("name").asText("");
    if (requireName && name.isEmpty()) {
      errors.add(FieldErrors.required(at + ".name", ""));
    } else if (!name.isEmpty()) {
      ItemNames.check(name, at + ".name", names, errors);
    }
    PortRules.number(p.path("port"), at + ".port", errors);
    PortRules.protocol(p.path("protocol"), at + ".protocol", errors);
    PortRules.numberOrName(p.path("targetPort"), at + ".targetPort", errors);
    PortRules.appProtocol(p.path("appProtocol"), at + ".appProtocol", errors);
  }

  private static void sessionAffinity(JsonNode spec, List<Status.Cause> errors) {
    String affinity = spec.path("sessionAffinity").asText("");
    if (affinity.isEmpty()) {
      errors.add(FieldErrors.required("spec.sessionAffinity", ""));
    } else if (!AFFINITIES.contains(affinity)) {
      errors.add(FieldErrors.notSupported("spec.sessionAffinity", affinity, AFFINITIES));
    }
    JsonNode config = spec.path("sessionAffinityConfig");
    if (affinity.equals("ClientIP")) {
      String when = "when session affinity type is ClientIP";
      JsonNode timeout = config.path("clientIP").path("timeoutSeconds");
      if (config.isMissingNode() || config.isNull()) {
        errors.add(FieldErrors.required("spec.sessionAffinityConfig", when));
      } else if (config.path("clientIP").isMissingNode() || config.path("clientIP").isNull()) {
        errors.add(FieldErrors.required("spec.sessionAffinityConfig.clientIP", when));
      } else if (timeout.isMissingNode() || timeout.isNull()) {
        errors.add(FieldErrors.required("spec.sessionAffinityConfig.clientIP.timeoutSeconds", when));
      } else if (timeout.asLong() <= 0 || timeout.asLong() > MAX_AFFINITY_SECONDS) {
        errors.add(FieldErrors.invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds", timeout.asLong(),
            "must be greater than 0 and less than " + MAX_AFFINITY_SECONDS));
      }
    } else if (affinity.equals("None") && present(spec, "sessionAffinityConfig")) {
      errors.add(FieldErrors.forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
    }
  }

  /** kube's {@code ValidateServiceClusterIPsRelatedFields}. */
  private static void clusterIps(JsonNode spec, List<Status.Cause> errors) {
    if (spec.path("type").asText("").equals("ExternalName")) {
      return;
    }
    String clusterIp = spec.path("clusterIP").asText("");
    List<String> ips = ServiceSpecs.strings(spec.path("clusterIPs"));
    if (!clusterIp.isEmpty()) {
      if (ips.isEmpty()) {
        errors.add(FieldErrors.required("spec.clusterIPs", ""));
      } else if (!ips.get(0).equals(clusterIp)) {
        errors.add(FieldErrors.invalid("spec.clusterIPs", ips, "first value must match `clusterIP`"));
      }
    } else if (!ips.isEmpty()) {
      errors.add(FieldErrors.invalid("spec.clusterIPs", ips, "must be empty when `clusterIP` is not specified"));
    }
    List<String> families = ServiceSpecs.strings(spec.path("ipFamilies"));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < families.size(); i++) {
      String f = families.get(i);
      if (!IP_FAMILIES.contains(f)) {
        errors.add(FieldErrors.notSupported("spec.ipFamilies[" + i + "]", f, IP_FAMILIES));
      }
      if (!seen.add(f)) {
        errors.add(FieldErrors.duplicate("spec.ipFamilies[" + i + "]", f));
      }
    }
    if (present(spec, "ipFamilyPolicy") && !IP_FAMILY_POLICIES.contains(spec.get("ipFamilyPolicy").asText(""))) {
      errors.add(FieldErrors.notSupported("spec.ipFamilyPolicy", spec.get("ipFamilyPolicy").asText(""), IP_FAMILY_POLICIES));
    }
    boolean invalidIps = false;
    for (int i = 0; i < ips.size(); i++) {
      if (i == 0 && ips.get(0).equals("None")) {
        if (ips.size() > 1) {
          invalidIps = true;
          errors.add(FieldErrors.invalid("spec.clusterIPs", ips, "'None' must be the first and only value"));
        }
        continue;
      }
      invalidIps |= !IpAddresses.checkIp("spec.clusterIPs[" + i + "]", ips.get(i), errors);
    }
    if (ips.size() > 2) {
      errors.add(FieldErrors.invalid("spec.clusterIPs", ips, "may only hold up to 2 values"));
    }
    if (invalidIps) {
      return;
    }
    if (ips.size() > 1 && IpAddresses.isIpv4(ips.get(0)) == IpAddresses.isIpv4(ips.get(1))) {
      errors.add(FieldErrors.invalid("spec.clusterIPs", ips, "may specify no more than one IP for each IP family"));
    }
    if (!ServiceSpecs.headless(spec)) {
      for (int i = 0; i < Math.min(ips.size(), families.size()); i++) {
        boolean v6 = !IpAddresses.isIpv4(ips.get(i));
        if (families.get(i).equals("IPv4") && v6) {
          errors.add(FieldErrors.invalid("spec.clusterIPs[" + i + "]", ips.get(i),
              "expected an IPv4 value as indicated by `ipFamilies[" + i + "]`"));
        }
        if (families.get(i).equals("IPv6") && !v6) {
          errors.add(FieldErrors.invalid("spec.clusterIPs[" + i + "]", ips.get(i),
              "expected an IPv6 value as indicated by `ipFamilies[" + i + "]`"));
        }
      }
    }
  }

  /** Go's {@code %#v} of the {@code core.ServicePort} key kube reports a duplicate port with. */
  private record PortKey(String protocol, long port) {
    @Override
    public String toString() {
      return "core.ServicePort{Name:\"\", Protocol:" + FieldErrors.goValue(protocol)
          + ", AppProtocol:(*string)(nil), Port:" + port
          + ", TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}";
    }
  }

  private static void duplicatePorts(JsonNode ports, List<Status.Cause> errors) {
    Set<String> nodePorts = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      long nodePort = ports.get(i).path("nodePort").asLong(0);
      if (nodePort != 0 && !nodePorts.add(ports.get(i).path("protocol").asText("") + "/" + nodePort)) {
        errors.add(FieldErrors.duplicate("spec.ports[" + i + "].nodePort", nodePort));
      }
    }
    Set<PortKey> seen = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      PortKey key = new PortKey(ports.get(i).path("protocol").asText(""), ports.get(i).path("port").asLong(0));
      if (!seen.add(key)) {
        errors.add(FieldErrors.duplicate("spec.ports[" + i + "]", key));
      }
    }
  }

  /**
   * kube's rules of {@code spec.loadBalancerSourceRanges} (LoadBalancer only; each a CIDR once
   * trimmed of spaces, at kube's path {@code spec.LoadBalancerSourceRanges[i]}) or else of the
   * annotation, {@code allocateLoadBalancerNodePorts} (LoadBalancer only, and required there).
   */
  private static void loadBalancerFields(JsonNode spec, JsonNode annotations, String type, List<Status.Cause> errors) {
    JsonNode ranges = spec.path("loadBalancerSourceRanges");
    if (!ranges.isEmpty() && !type.equals("LoadBalancer")) {
      errors.add(FieldErrors.forbidden("spec.LoadBalancerSourceRanges", "may only be used when `type` is 'LoadBalancer'"));
    }
    for (int i = 0; i < ranges.size(); i++) {
      cidr(ranges.get(i).asText(""), "spec.LoadBalancerSourceRanges[" + i + "]", errors);
    }
    sourceRangesAnnotation(spec, annotations, errors);
    if (present(spec, "allocateLoadBalancerNodePorts") && !type.equals("LoadBalancer")) {
      errors.add(FieldErrors.forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"));
    }
    if (type.equals("LoadBalancer") && !present(spec, "allocateLoadBalancerNodePorts")) {
      errors.add(FieldErrors.required("allocateLoadBalancerNodePorts", ""));
    }
  }

  /**
   * kube's rules of the source-ranges annotation, checked only when the field is empty:
   * LoadBalancer only; once trimmed, a comma-separated list of CIDRs (each trimmed).
   */
  private static void sourceRangesAnnotation(JsonNode spec, JsonNode annotations, List<Status.Cause> errors) {
    JsonNode value = annotations.get(SOURCE_RANGES_ANNOTATION);
    if (!spec.path("loadBalancerSourceRanges").isEmpty() || value == null || value.isNull()) {
      return;
    }
    String path = "metadata.annotations[" + SOURCE_RANGES_ANNOTATION + "]";
    if (!spec.path("type").asText("").equals("LoadBalancer")) {
      errors.add(FieldErrors.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    }
    String ranges = value.asText("").strip();
    if (!ranges.isEmpty()) {
      for (String range : ranges.split(",", -1)) {
        cidr(range, path, errors);
      }
    }
  }

  /** kube 1.32's check of one source range: {@code IsValidCIDR} of the trimmed value. */
  private static void cidr(String value, String path, List<Status.Cause> errors) {
    Cidr.check(path, value.strip(), errors);
  }

  /**
   * The create half of kube's {@code validateLoadBalancerClassField}: a LoadBalancer's class is a
   * qualified name; other types may not have one.
   */
  private static void loadBalancerClass(JsonNode spec, List<Status.Cause> errors) {
    JsonNode lbClass = spec.get("loadBalancerClass");
    if (lbClass == null || lbClass.isNull()) {
      return;
    }
    if (spec.path("type").asText("").equals("LoadBalancer")) {
      for (String msg : NameSyntax.isQualifiedName(lbClass.asText(""))) {
        errors.add(FieldErrors.invalid("spec.loadBalancerClass", lbClass.asText(""), msg));
      }
    } else {
      errors.add(FieldErrors.forbidden("spec.loadBalancerClass", "may only be used when `type` is 'LoadBalancer'"));
    }
  }

  /** kube's {@code validateServiceExternalTrafficPolicy} and {@code validateServiceInternalTrafficFieldsValue}. */
  private static void trafficPolicies(JsonNode spec, String type, List<Status.Cause> errors) {
    String external = spec.path("externalTrafficPolicy").asText("");
    if (!ServiceSpecs.externallyAccessible(spec)) {
      if (!external.isEmpty()) {
        errors.add(FieldErrors.invalid("spec.externalTrafficPolicy", external,
            "may only be set for externally-accessible services"));
      }
    } else if (external.isEmpty()) {
      errors.add(FieldErrors.required("spec.externalTrafficPolicy", ""));
    } else if (!TRAFFIC_POLICIES.contains(external)) {
      errors.add(FieldErrors.notSupported("spec.externalTrafficPolicy", external, TRAFFIC_POLICIES));
    }
    long healthCheck = spec.path("healthCheckNodePort").asLong(0);
    if (!ServiceSpecs.needsHealthCheck(spec)) {
      if (healthCheck != 0) {
        errors.add(FieldErrors.invalid("spec.healthCheckNodePort", healthCheck,
            "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
      }
    } else if (healthCheck != 0) { // 0 is allocated after validation here, before it in kube: never Required
      PortRules.number(spec.path("healthCheckNodePort"), "spec.healthCheckNodePort", errors);
    }
    if (!present(spec, "internalTrafficPolicy")) {
      if (type.equals("NodePort") || type.equals("LoadBalancer") || type.equals("ClusterIP")) {
        errors.add(FieldErrors.required("spec.internalTrafficPolicy", ""));
      }
    } else if (!TRAFFIC_POLICIES.contains(spec.get("internalTrafficPolicy").asText(""))) {
      errors.add(FieldErrors.notSupported("spec.internalTrafficPolicy", spec.get("internalTrafficPolicy").asText(""),
          TRAFFIC_POLICIES));
    }
    JsonNode distribution = spec.path("trafficDistribution");
    if (present(spec, "trafficDistribution") && !distribution.asText("").equals("PreferClose")) {
      errors.add(FieldErrors.notSupported("spec.trafficDistribution", distribution.asText(""), List.of("PreferClose")));
    }
  }

  /**
   * The first half of kube's {@code ValidateServiceUpdate}: cluster IPs and IP families may
   * grow or shrink (dual-stack) but not change once set, except to, from or on ExternalName;
   * a LoadBalancer's class and health check node port may not change while it stays one.
   */
  static void validateUpdate(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    boolean externalName = spec.path("type").asText("").equals("ExternalName")
        || oldSpec.path("type").asText("").equals("ExternalName");
    if (!externalName && !(ServiceSpecs.headless(spec) && ServiceSpecs.headless(oldSpec))) {
      upgradeDowngrade("clusterIPs", ServiceSpecs.strings(spec.path("clusterIPs")), ServiceSpecs.strings(oldSpec.path("clusterIPs")), spec, errors);
    }
    if (!externalName && ServiceSpecs.headless(spec) == ServiceSpecs.headless(oldSpec) && !ServiceSpecs.headless(spec)) {
      upgradeDowngrade("ipFamilies", ServiceSpecs.strings(spec.path("ipFamilies")), ServiceSpecs.strings(oldSpec.path("ipFamilies")), spec, errors);
    }
    JsonNode lbClass = Volumes.orNull(spec.get("loadBalancerClass"));
    if (spec.path("type").asText("").equals("LoadBalancer") && oldSpec.path("type").asText("").equals("LoadBalancer")
        && !Objects.equals(lbClass, Volumes.orNull(oldSpec.get("loadBalancerClass")))) {
      errors.add(FieldErrors.invalid("spec.loadBalancerClass", lbClass == null ? null : lbClass.asText(), "may not change once set"));
    }
    if (ServiceSpecs.needsHealthCheck(oldSpec) && ServiceSpecs.needsHealthCheck(spec)
        && spec.path("healthCheckNodePort").asLong(0) != oldSpec.path("healthCheckNodePort").asLong(0)) {
      errors.add(FieldErrors.forbidden("spec.healthCheckNodePort", "field is immutable"));
    }
  }

  /** kube's {@code validateUpgradeDowngradeClusterIPs} and {@code ...IPFamilies}, for {@code field}. */
  private static void upgradeDowngrade(String field, List<String> now, List<String> before, JsonNode spec,
      List<Status.Cause> errors) {
    String path = "spec." + field;
    List<String> shown = field.equals("clusterIPs") ? now : ServiceSpecs.strings(spec.path("clusterIPs"));
    if (now.size() == before.size()) {
      for (int i = 0; i < before.size(); i++) {
        if (!before.get(i).equals(now.get(i))) {
          errors.add(FieldErrors.invalid(path + "[" + (field.equals("clusterIPs") ? i : 0) + "]", now,
              "may not change once set"));
        }
      }
    } else if (before.size() > now.size()) {
      if (field.equals("clusterIPs") ? now.isEmpty() : shown.isEmpty()) {
        errors.add(FieldErrors.invalid(path + "[0]", now, "primary " + (field.equals("clusterIPs") ? "clusterIP" : "ipFamily")
            + " can not be unset"));
      }
      if (!now.isEmpty() && !Objects.equals(now.get(0), before.get(0))) {
        errors.add(FieldErrors.invalid(path + "[0]", shown, "may not change once set"));
      }
      if (now.size() == 1 && !spec.path("ipFamilyPolicy").asText("").equals("SingleStack")) {
        errors.add(FieldErrors.invalid("spec.ipFamilyPolicy", spec.path("ipFamilyPolicy").isTextual()
            ? spec.get("ipFamilyPolicy").asText() : null, "must be set to 'SingleStack' when releasing the secondary "
            + (field.equals("clusterIPs") ? "clusterIP" : "ipFamily")));
      }
    } else if (!before.isEmpty() && !now.get(0).equals(before.get(0))) {
      errors.add(FieldErrors.invalid(path + "[0]", shown, "may not change once set"));
    }
  }
}

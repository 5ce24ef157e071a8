package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import io.listwatch.apiserver.validation.IpAddresses;
import java.util.List;

/**
 * kube 1.32's rules of a load balancer status's {@code ingress} entries, an Ingress's
 * ({@code ValidateIngressLoadBalancerStatus}) and a Service's ({@code ValidateLoadBalancerStatus},
 * {@link #service}): an {@code ip}, when given, an IP address
 * ({@code ParseIPSloppy}: IPv4 octets may have leading zeros); a {@code hostname}, when given, a
 * DNS-1123 subdomain and not an IP address. Ports are not checked (nor are they in kube).
 * Stateless.
 */
final class LoadBalancerStatusValidation {

  private LoadBalancerStatusValidation() {
  }

  /** Adds the errors of the {@code ingress} list of the status at {@code path} (e.g. {@code status.loadBalancer}). */
  static void ingress(JsonNode loadBalancer, String path, List<Status.Cause> errors) {
    entries(loadBalancer, path, false, errors);
  }

  /**
   * A Service's load balancer status (kube 1.32's {@code ValidateLoadBalancerStatus}): entries
   * only on a {@code LoadBalancer} Service of type {@code serviceType} (its
   * {@code AllowServiceLBStatusOnNonLB} is off), and each entry's {@code ipMode} (GA in 1.32)
   * only with an {@code ip}, {@code VIP} or {@code Proxy}.
   */
  static void service(JsonNode loadBalancer, String serviceType, String path, List<Status.Cause> errors) {
    if (!serviceType.equals("LoadBalancer") && !loadBalancer.path("ingress").isEmpty()) {
      errors.add(FieldErrors.forbidden(path + ".ingress", "may only be used when `spec.type` is 'LoadBalancer'"));
      return;
    }
    entries(loadBalancer, path, true, errors);
  }

  private static void entries(JsonNode loadBalancer, String path, boolean ipMode, List<Status.Cause> errors) {
    JsonNode entries = loadBalancer.path("ingress");
    for (int i = 0; i < entries.size(); i++) {
      String at = path + ".ingress[" + i + "]";
      String ip = entries.get(i).path("ip").asText("");
      if (!ip.isEmpty() && IpAddresses.parse(ip) == null) {
        errors.add(FieldErrors.invalid(at + ".ip", ip, "must be a valid IP address"));
      }
      JsonNode mode = entries.get(i).get("ipMode");
      if (ipMode && mode != null && !mode.isNull()) {
        if (ip.isEmpty()) {
          errors.add(FieldErrors.forbidden(at + ".ipMode", "may not be specified when `ip` is not set"));
        } else if (!List.of("Proxy", "VIP").contains(mode.asText())) {
          errors.add(FieldErrors.notSupported(at + ".ipMode", mode.asText(), List.of("Proxy", "VIP")));
        }
      }
      String hostname = entries.get(i).path("hostname").asText("");
      if (!hostname.isEmpty()) {
        for (String msg : NameSyntax.isDns1123Subdomain(hostname)) {
          errors.add(FieldErrors.invalid(at + ".hostname", hostname, msg));
        }
        if (IpAddresses.parse(hostname) != null) {
          errors.add(FieldErrors.invalid(at + ".hostname", hostname, "must be a DNS name, not an IP address"));
        }
      }
    }
  }
}

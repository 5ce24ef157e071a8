package io.listwatch.apiserver.allocation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.strategy.ServiceSpecs;
import io.listwatch.apiserver.validation.FieldErrors;
import io.listwatch.apiserver.validation.IpAddresses;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's {@code initIPFamilyFields} on a single-stack cluster (one Service IP range): fills a
 * Service's {@code ipFamilyPolicy} and {@code ipFamilies} and refuses what the cluster cannot
 * serve, with kube's paths and messages. Stateless.
 */
final class IpFamilies {

  private IpFamilies() {
  }

  /**
   * Fills and checks {@code spec}'s families for a cluster whose one family is {@code primary}
   * ({@code oldSpec} null on create).
   *
   * @throws StatusException 422 Invalid for a family or policy the cluster does not serve
   */
  static void init(ObjectNode spec, JsonNode oldSpec, String primary, String name) {
    if (!ServiceSpecs.needsClusterIp(spec)) {
      return;
    }
    List<String> ips = ServiceSpecs.strings(spec.path("clusterIPs"));
    List<String> families = ServiceSpecs.strings(spec.path("ipFamilies"));
    String policy = spec.path("ipFamilyPolicy").isTextual() ? spec.get("ipFamilyPolicy").asText() : null;
    List<Status.Cause> errors = new ArrayList<>();
    if (oldSpec != null && "SingleStack".equals(policy)) {
      if (ips.size() > 1 && ips.equals(ServiceSpecs.strings(oldSpec.path("clusterIPs")))) {
        ips = ips.subList(0, 1);
      }
      if (families.size() > 1 && families.equals(ServiceSpecs.strings(oldSpec.path("ipFamilies")))) {
        families = new ArrayList<>(families.subList(0, 1));
      }
    }
    if ("SingleStack".equals(policy)) {
      if (ips.size() == 2) {
        errors.add(FieldErrors.invalid("spec.ipFamilyPolicy", policy,
            "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      }
      if (families.size() == 2) {
        errors.add(FieldErrors.invalid("spec.ipFamilyPolicy", policy,
            "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
      }
    }
    families = new ArrayList<>(families);
    for (int i = 0; i < ips.size() && !ips.get(i).equals("None"); i++) {
      String family = IpAddresses.isIpv4(ips.get(i)) ? "IPv4" : "IPv6";
      if (i >= families.size()) {
        if (!family.equals(primary)) {
          errors.add(FieldErrors.invalid("spec.clusterIPs[" + i + "]", ips, family + " is not configured on this cluster"));
        } else {
          families.add(family);
        }
      }
    }
    fail(errors, name);
    String other = primary.equals("IPv4") ? "IPv6" : "IPv4";
    if (spec.path("clusterIP").asText("").equals("None") && spec.path("selector").isEmpty()) {
      // headless and selectorless: whatever families the user asked for, dual-stack by default
      if (policy == null) {
        policy = "RequireDualStack";
      }
      if (families.isEmpty()) {
        families.add(primary);
      }
      if (families.size() < 2 && !policy.equals("SingleStack")) {
        families.add(families.get(0).equals("IPv4") ? "IPv6" : "IPv4");
      }
      set(spec, policy, families);
      return;
    }
    if (policy == null) {
      policy = families.size() > 1 ? "RequireDualStack" : "SingleStack";
    }
    if (policy.equals("RequireDualStack")) {
      errors.add(FieldErrors.invalid("spec.ipFamilyPolicy", policy, "this cluster is not configured for dual-stack services"));
    }
    for (int i = 0; i < families.size(); i++) {
      if (families.get(i).equals(other)) {
        errors.add(FieldErrors.invalid("spec.ipFamilies[" + i + "]", other, "not configured on this cluster"));
      }
    }
    fail(errors, name);
    if (families.isEmpty()) {
      families.add(primary);
    }
    set(spec, policy, families);
  }

  private static void fail(List<Status.Cause> errors, String name) {
    if (!errors.isEmpty()) {
      throw StatusException.invalid("", "Service", name, errors);
    }
  }

  private static void set(ObjectNode spec, String policy, List<String> families) {
    spec.put("ipFamilyPolicy", policy);
    ArrayNode list = spec.putArray("ipFamilies");
    families.forEach(list::add);
  }
}

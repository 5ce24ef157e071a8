package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.core.Quantity;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's rules for resource names and quantities ({@code pkg/apis/core/helper} and
 * {@code ValidateResourceQuantityValue}), shared by ResourceQuotas, LimitRanges, nodes and
 * volumes: which names are standard (for quota, for containers, in general), which count whole
 * things, and that a quantity is not negative. A bad value is printed as the client wrote it
 * (kube prints its canonical form, or for "must be an integer" its Go struct). Stateless.
 */
final class Quantities {

  /** kube's {@code isNegativeErrorMsg}. */
  static final String NEGATIVE = "must be greater than or equal to 0";

  private static final Set<String> STANDARD = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
      "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
      "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
      "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports", "services.loadbalancers");
  private static final Set<String> STANDARD_QUOTA = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
      "requests.memory", "requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
      "limits.ephemeral-storage", "pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
      "persistentvolumeclaims", "configmaps", "services.nodeports", "services.loadbalancers");
  private static final Set<String> INTEGER = Set.of("pods", "resourcequotas", "services", "replicationcontrollers",
      "secrets", "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers");

  private Quantities() {
  }

  /** The amount of a JSON quantity (a string or a number), or null when it is not one. */
  static BigDecimal amount(JsonNode q) {
    if (q.isNumber()) {
      return q.decimalValue();
    }
    try {
      return q.isTextual() ? Quantity.parse(q.asText()) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** kube's {@code IsNativeResource}: no domain, or a {@code kubernetes.io/} one. */
  static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  /** kube's {@code IsHugePageResourceName}. */
  static boolean isHugePages(String name) {
    return name.startsWith("hugepages-");
  }

  /** kube's {@code IsExtendedResourceName}. */
  static boolean isExtended(String name) {
    return !isNative(name) && !name.startsWith("requests.") && NameSyntax.isQualifiedName("requests." + name).isEmpty();
  }

  /** kube's {@code IsOvercommitAllowed}. */
  static boolean overcommitAllowed(String name) {
    return isNative(name) && !isHugePages(name);
  }

  /** kube's {@code IsStandardQuotaResourceName}. */
  static boolean isStandardQuota(String name) {
    return STANDARD_QUOTA.contains(name) || isQuotaHugePages(name);
  }

  /** kube's {@code IsStandardContainerResourceName}. */
  static boolean isStandardContainer(String name) {
    return Set.of("cpu", "memory", "ephemeral-storage").contains(name) || isHugePages(name);
  }

  private static boolean isQuotaHugePages(String name) {
    return name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");
  }

  /**
   * kube's {@code validateResourceName}: a qualified name, and if it has no domain a standard
   * one ({@code must be a standard resource type or fully qualified}). True if it passed.
   */
  static boolean resourceName(String name, String path, List<Status.Cause> errors) {
    List<String> msgs = NameSyntax.isQualifiedName(name);
    for (String msg : msgs) {
      errors.add(FieldErrors.invalid(path, name, msg));
    }
    if (!msgs.isEmpty()) {
      return false;
    }
    if (!name.contains("/") && !STANDARD.contains(name) && !isQuotaHugePages(name)) {
      errors.add(FieldErrors.invalid(path, name, "must be a standard resource type or fully qualified"));
      return false;
    }
    return true;
  }

  /** kube's {@code validateContainerResourceName}. */
  static void containerResourceName(String name, String path, List<Status.Cause> errors) {
    resourceName(name, path, errors);
    if (!name.contains("/")) {
      if (!isStandardContainer(name)) {
        errors.add(FieldErrors.invalid(path, name, "must be a standard resource for containers"));
      }
    } else if (!isNative(name) && !isExtended(name)) {
      errors.add(FieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
    }
  }

  /**
   * kube's {@code ValidateResourceQuantityValue}: {@code must be greater than or equal to 0},
   * and for integer resources (and extended ones) {@code must be an integer}.
   */
  static void value(String resource, JsonNode q, String path, List<Status.Cause> errors) {
    BigDecimal amount = amount(q);
    if (amount == null) {
      return;
    }
    if (amount.signum() < 0) {
      errors.add(FieldErrors.invalid(path, q.asText(), NEGATIVE));
    }
    if ((INTEGER.contains(resource) || isExtended(resource))
        && amount.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).remainder(BigDecimal.valueOf(1000)).signum() != 0) {
      errors.add(FieldErrors.invalid(path, q.asText(), "must be an integer"));
    }
  }

  /** kube's {@code ValidateNodeResources}: {@code status.capacity} and {@code status.allocatable} values. */
  static void statusResources(JsonNode status, List<Status.Cause> errors) {
    for (String field : List.of("capacity", "allocatable")) {
      for (Map.Entry<String, JsonNode> e : status.path(field).properties()) {
        value(e.getKey(), e.getValue(), "status." + field + "." + e.getKey(), errors);
      }
    }
  }
}

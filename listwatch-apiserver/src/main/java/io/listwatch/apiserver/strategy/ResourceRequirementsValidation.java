package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.core.Quantity;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * kube 1.32's {@code ValidateContainerResourceRequirements} (and {@code validateOverhead},
 * which checks a pod's overhead as limits): each resource name qualified and, without a
 * domain, a standard container resource ({@code cpu}, {@code memory},
 * {@code ephemeral-storage}, {@code hugepages-*}); each quantity not negative (whole for
 * extended resources); a request at most its limit ({@code must be less than or equal to cpu
 * limit of 1}); an extended resource's request equal to its limit, which must be set; huge
 * pages only with cpu or memory. A quantity kube could not decode (its 400) is an
 * {@code Invalid value} here. Quantities are printed as written, where kube prints its
 * canonical form ({@code 0.5} becomes {@code 500m}). Stateless.
 */
final class ResourceRequirementsValidation {

  private ResourceRequirementsValidation() {
  }

  /** The errors of a container's {@code resources}, found at {@code path}. */
  static void container(JsonNode resources, String path, List<Status.Cause> errors) {
    JsonNode limits = resources.path("limits");
    JsonNode requests = resources.path("requests");
    boolean cpuOrMemory = false;
    boolean hugePages = false;
    for (Map.Entry<String, JsonNode> e : limits.properties()) {
      String at = path + ".limits[" + e.getKey() + "]";
      name(e.getKey(), at, errors);
      quantity(e.getKey(), e.getValue(), at, errors);
      hugePages |= e.getKey().startsWith("hugepages-");
      cpuOrMemory |= e.getKey().equals("cpu") || e.getKey().equals("memory");
    }
    for (Map.Entry<String, JsonNode> e : requests.properties()) {
      String resource = e.getKey();
      String at = path + ".requests[" + resource + "]";
      name(resource, at, errors);
      BigDecimal request = quantity(resource, e.getValue(), at, errors);
      JsonNode limitNode = limits.get(resource);
      if (limitNode != null) {
        BigDecimal limit = parse(limitNode);
        String limitText = limitNode.asText();
        if (request != null && limit != null) {
          if (request.compareTo(limit) != 0 && !overcommitAllowed(resource)) {
            errors.add(FieldErrors.invalid(path + ".requests", e.getValue().asText(),
                "must be equal to " + resource + " limit of " + limitText));
          } else if (request.compareTo(limit) > 0) {
            errors.add(FieldErrors.invalid(path + ".requests", e.getValue().asText(),
                "must be less than or equal to " + resource + " limit of " + limitText));
          }
        }
      } else if (!overcommitAllowed(resource)) {
        errors.add(FieldErrors.required(path + ".limits", "Limit must be set for non overcommitable resources"));
      }
      hugePages |= resource.startsWith("hugepages-");
      cpuOrMemory |= resource.equals("cpu") || resource.equals("memory");
    }
    if (hugePages && !cpuOrMemory) {
      errors.add(FieldErrors.forbidden(path, "HugePages require cpu or memory"));
    }
  }

  /** kube's {@code validateOverhead}: the overhead checked as a container's limits. */
  static void overhead(JsonNode overhead, String path, List<Status.Cause> errors) {
    for (Map.Entry<String, JsonNode> e : overhead.properties()) {
      String at = path + "[" + e.getKey() + "]";
      name(e.getKey(), at, errors);
      quantity(e.getKey(), e.getValue(), at, errors);
    }
  }

  /** kube's {@code validateContainerResourceName}. */
  private static void name(String resource, String path, List<Status.Cause> errors) {
    int before = errors.size();
    PodSpecValidation.qualifiedName(resource, path, errors);
    boolean qualified = errors.size() == before;
    if (!resource.contains("/")) {
      if (qualified && !standard(resource)) {
        errors.add(FieldErrors.invalid(path, resource, "must be a standard resource type or fully qualified"));
      }
      if (!standardForContainers(resource)) {
        errors.add(FieldErrors.invalid(path, resource, "must be a standard resource for containers"));
      }
    } else if (!nativeResource(resource) && !extended(resource)) {
      errors.add(FieldErrors.invalid(path, resource, "doesn't follow extended resource name standard"));
    }
  }

  /** kube's {@code ValidateResourceQuantityValue}: not negative; whole for an integer resource. Null when unparsable. */
  private static BigDecimal quantity(String resource, JsonNode value, String path, List<Status.Cause> errors) {
    BigDecimal amount = parse(value);
    if (amount == null) {
      errors.add(FieldErrors.invalid(path, value.asText(),
          "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
      return null;
    }
    if (amount.signum() < 0) {
      errors.add(FieldErrors.invalid(path, value.asText(), "must be greater than or equal to 0"));
    }
    if (extended(resource) && amount.stripTrailingZeros().scale() > 0) {
      errors.add(FieldErrors.invalid(path, value.asText(), "must be an integer"));
    }
    return amount;
  }

  private static BigDecimal parse(JsonNode value) {
    if (value.isNumber()) {
      return value.decimalValue();
    }
    try {
      return value.isTextual() ? Quantity.parse(value.textValue()) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** kube's {@code IsStandardResourceName}, for names without a domain (quota's names included). */
  private static boolean standard(String resource) {
    return standardForContainers(resource) || resource.startsWith("requests.") || resource.startsWith("limits.")
        || List.of("pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
            "persistentvolumeclaims", "storage", "services.nodeports", "services.loadbalancers").contains(resource);
  }

  /** kube's {@code IsStandardContainerResourceName}. */
  private static boolean standardForContainers(String resource) {
    return List.of("cpu", "memory", "ephemeral-storage").contains(resource) || resource.startsWith("hugepages-");
  }

  /** kube's {@code IsNativeResource}: no domain, or one ending in {@code kubernetes.io}. */
  private static boolean nativeResource(String resource) {
    return !resource.contains("/") || resource.substring(0, resource.indexOf('/')).endsWith("kubernetes.io");
  }

  /** kube's {@code IsExtendedResourceName}: a domain not kubernetes.io's, a name that can follow {@code requests.}. */
  private static boolean extended(String resource) {
    if (nativeResource(resource) || resource.startsWith("requests.")) {
      return false;
    }
    return NameSyntax.isQualifiedName("requests." + resource).isEmpty();
  }

  /** kube's {@code IsOvercommitAllowed}: native resources but huge pages. */
  private static boolean overcommitAllowed(String resource) {
    return nativeResource(resource) && !resource.startsWith("hugepages-");
  }
}

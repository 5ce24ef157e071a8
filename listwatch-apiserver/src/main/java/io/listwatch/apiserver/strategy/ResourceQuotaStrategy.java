package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * ResourceQuotas (core/v1), kube's {@code ValidateResourceQuota}, {@code ...Update} and
 * {@code ...StatusUpdate}: each name of {@code spec.hard} (and of {@code status.hard} and
 * {@code status.used}) a standard quota resource or a qualified name with a domain, each
 * quantity not negative (and whole for countable resources); {@code spec.scopes} standard,
 * valid for every standard hard resource, not both BestEffort and NotBestEffort nor
 * Terminating and NotTerminating; {@code spec.scopeSelector.matchExpressions} likewise, with
 * kube's operator rules (Exists for the pod-shape scopes; values for In and NotIn, none for
 * Exists and DoesNotExist). On update {@code spec.scopes} is immutable. A {@code /status}
 * write with bad status quantities is refused with a 422. Stateless.
 */
final class ResourceQuotaStrategy implements RestStrategy {

  private static final Set<String> SCOPES = Set.of("Terminating", "NotTerminating", "BestEffort", "NotBestEffort",
      "PriorityClass", "CrossNamespacePodAffinity");
  private static final Set<String> POD_SHAPE_SCOPES = Set.of("Terminating", "NotTerminating", "BestEffort",
      "NotBestEffort", "CrossNamespacePodAffinity");
  private static final Set<String> POD_COMPUTE = Set.of("cpu", "memory", "limits.cpu", "limits.memory",
      "requests.cpu", "requests.memory");
  private static final String SCOPE_TYPE = "core.ResourceQuotaScope";

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    resources(spec.path("hard"), "spec.hard", errors);
    List<String> scopes = strings(spec.path("scopes"));
    Set<String> hard = new TreeSet<>();
    spec.path("hard").fieldNames().forEachRemaining(hard::add);
    Set<String> scopeSet = new HashSet<>();
    for (String scope : scopes) {
      if (!SCOPES.contains(scope)) {
        errors.add(FieldErrors.invalid("spec.scopes", GoLiteral.strings(SCOPE_TYPE, scopes), "unsupported scope"));
      }
      for (String k : hard) {
        if (Quantities.isStandardQuota(k) && !validForResource(scope, k)) {
          errors.add(FieldErrors.invalid("spec.scopes", GoLiteral.strings(SCOPE_TYPE, scopes), "unsupported scope applied to resource"));
        }
      }
      scopeSet.add(scope);
    }
    conflicting(scopeSet, "spec.scopes", scopes, errors);
    scopeSelector(spec, hard, scopes, errors);
    if (old == null) {
      statusResources(obj, errors);
    } else if (!new HashSet<>(strings(old.path("spec").path("scopes"))).equals(scopeSet)) {
      errors.add(FieldErrors.invalid("spec.scopes", GoLiteral.strings(SCOPE_TYPE, scopes), "field is immutable"));
    }
  }

  /** kube's status strategy validation: {@code status.hard} and {@code status.used}, refused with a 422. */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new ArrayList<>();
    statusResources(obj, errors);
    StatusValidation.refuse("", "ResourceQuota", obj, errors);
  }

  private static void statusResources(ObjectNode obj, List<Status.Cause> errors) {
    resources(obj.path("status").path("hard"), "status.hard", errors);
    resources(obj.path("status").path("used"), "status.used", errors);
  }

  private static void scopeSelector(JsonNode spec, Set<String> hard, List<String> scopes, List<Status.Cause> errors) {
    JsonNode expressions = spec.path("scopeSelector").path("matchExpressions");
    String path = "spec.scopeSelector.matchExpressions";
    Set<String> scopeSet = new HashSet<>();
    for (JsonNode req : expressions) {
      String scope = req.path("scopeName").asText("");
      String op = req.path("operator").asText("");
      if (!SCOPES.contains(scope)) {
        errors.add(FieldErrors.invalid(path + ".scopeName", scope, "unsupported scope"));
      }
      for (String k : hard) {
        if (Quantities.isStandardQuota(k) && !validForResource(scope, k)) {
          errors.add(FieldErrors.invalid(path, new GoLiteral("core.ScopeSelector{MatchExpressions:" + expressions + "}"),
              "unsupported scope applied to resource"));
        }
      }
      if (POD_SHAPE_SCOPES.contains(scope) && !op.equals("Exists")) {
        errors.add(FieldErrors.invalid(path + ".operator", op, "must be 'Exists' when scope is any of "
            + "ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, "
            + "ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
      }
      List<String> values = strings(req.path("values"));
      switch (op) {
        case "In", "NotIn" -> {
          if (values.isEmpty()) {
            errors.add(FieldErrors.required(path + ".values",
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
          }
        }
        case "Exists", "DoesNotExist" -> {
          if (!values.isEmpty()) {
            errors.add(FieldErrors.invalid(path + ".values", values,
                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
          }
        }
        default -> errors.add(FieldErrors.invalid(path + ".operator", op, "not a valid selector operator"));
      }
      scopeSet.add(scope);
    }
    conflicting(scopeSet, path, scopes, errors);
  }

  /** kube's invalid scope pairs: BestEffort with NotBestEffort, Terminating with NotTerminating. */
  private static void conflicting(Set<String> scopeSet, String path, List<String> scopes, List<Status.Cause> errors) {
    for (List<String> pair : List.of(List.of("BestEffort", "NotBestEffort"), List.of("Terminating", "NotTerminating"))) {
      if (scopeSet.containsAll(pair)) {
        errors.add(FieldErrors.invalid(path, GoLiteral.strings(SCOPE_TYPE, scopes), "conflicting scopes"));
      }
    }
  }

  /** kube's {@code IsResourceQuotaScopeValidForResource}. */
  private static boolean validForResource(String scope, String resource) {
    return switch (scope) {
      case "Terminating", "NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity" ->
          resource.equals("pods") || POD_COMPUTE.contains(resource);
      case "BestEffort" -> resource.equals("pods");
      default -> true;
    };
  }

  /** kube's {@code ValidateResourceQuotaResourceName} and {@code ValidateResourceQuantityValue} for each entry. */
  private static void resources(JsonNode map, String path, List<Status.Cause> errors) {
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      String at = path + "[" + e.getKey() + "]";
      Quantities.resourceName(e.getKey(), at, errors);
      if (!e.getKey().contains("/") && !Quantities.isStandardQuota(e.getKey())) {
        errors.add(FieldErrors.invalid(at, e.getKey(), "must be a standard resource for quota"));
      }
      Quantities.value(e.getKey(), e.getValue(), at, errors);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      out.add(n.asText(""));
    }
    return out;
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's rules of an admission {@code RuleWithOperations} ({@code validateRuleWithOperations},
 * {@code validateRule}, {@code validateResources}): operations required, each one of
 * {@code *}, CREATE, UPDATE, DELETE, CONNECT, and {@code *} alone; apiGroups and apiVersions
 * required, {@code *} alone, no empty version; resources required, none empty, with kube's
 * wildcard rules for subresources ({@code *}, {@code x/*}, {@code *}{@code /x},
 * {@code *}{@code /*}); a scope, when given, of {@code *}, Cluster or Namespaced. Stateless.
 */
final class RuleWithOperationsValidation {

  /** kube's {@code supportedOperations}, sorted as kube lists them. */
  private static final List<String> OPERATIONS = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
  /** kube's {@code validScopes}, sorted. */
  private static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");
  private static final String WILDCARD = "*";

  private RuleWithOperationsValidation() {
  }

  /** The rule at {@code path} (e.g. {@code webhooks[0].rules[1]}). */
  static void validate(JsonNode rule, String path, List<Status.Cause> errors) {
    List<String> operations = ServiceSpecs.strings(rule.path("operations"));
    if (operations.isEmpty()) {
      errors.add(FieldErrors.required(path + ".operations", ""));
    }
    if (operations.size() > 1 && operations.contains(WILDCARD)) {
      errors.add(FieldErrors.invalid(path + ".operations",
          GoLiteral.strings("admissionregistration.OperationType", operations),
          "if '*' is present, must not specify other operations"));
    }
    for (int i = 0; i < operations.size(); i++) {
      if (!OPERATIONS.contains(operations.get(i))) {
        errors.add(FieldErrors.notSupported(path + ".operations[" + i + "]", operations.get(i), OPERATIONS));
      }
    }
    rule(rule, path, errors);
  }

  /** kube's {@code validateRule} with subresources allowed. */
  private static void rule(JsonNode rule, String path, List<Status.Cause> errors) {
    List<String> groups = ServiceSpecs.strings(rule.path("apiGroups"));
    if (groups.isEmpty()) {
      errors.add(FieldErrors.required(path + ".apiGroups", ""));
    }
    if (groups.size() > 1 && groups.contains(WILDCARD)) {
      errors.add(FieldErrors.invalid(path + ".apiGroups", groups, "if '*' is present, must not specify other API groups"));
    }
    List<String> versions = ServiceSpecs.strings(rule.path("apiVersions"));
    if (versions.isEmpty()) {
      errors.add(FieldErrors.required(path + ".apiVersions", ""));
    }
    if (versions.size() > 1 && versions.contains(WILDCARD)) {
      errors.add(FieldErrors.invalid(path + ".apiVersions", versions,
          "if '*' is present, must not specify other API versions"));
    }
    for (int i = 0; i < versions.size(); i++) {
      if (versions.get(i).isEmpty()) {
        errors.add(FieldErrors.required(path + ".apiVersions[" + i + "]", ""));
      }
    }
    resources(ServiceSpecs.strings(rule.path("resources")), path + ".resources", errors);
    JsonNode scope = rule.path("scope");
    if (NumericFields.given(scope) && !SCOPES.contains(scope.asText(""))) {
      errors.add(FieldErrors.notSupported(path + ".scope", scope.asText(""), SCOPES));
    }
  }

  /** kube's {@code validateResources}. */
  private static void resources(List<String> resources, String path, List<Status.Cause> errors) {
    if (resources.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
    }
    Set<String> withWildcardSubresource = new HashSet<>(); // x/*
    Set<String> subresourcesOfWildcard = new HashSet<>(); // */x
    boolean doubleWildcard = false;
    boolean singleWildcard = false;
    boolean withoutSubresource = false;
    for (int i = 0; i < resources.size(); i++) {
      String resSub = resources.get(i);
      String at = path + "[" + i + "]";
      if (resSub.isEmpty()) {
        errors.add(FieldErrors.required(at, ""));
        continue;
      }
      doubleWildcard |= resSub.equals("*/*");
      singleWildcard |= resSub.equals(WILDCARD);
      int slash = resSub.indexOf('/');
      if (slash < 0) {
        withoutSubresource = !resSub.equals(WILDCARD); // kube keeps only the last one's answer
        continue;
      }
      String res = resSub.substring(0, slash);
      String sub = resSub.substring(slash + 1);
      if (withWildcardSubresource.contains(res)) {
        errors.add(FieldErrors.invalid(at, resSub, "if '" + res + "/*' is present, must not specify " + resSub));
      }
      if (subresourcesOfWildcard.contains(sub)) {
        errors.add(FieldErrors.invalid(at, resSub, "if '*/" + sub + "' is present, must not specify " + resSub));
      }
      if (sub.equals(WILDCARD)) {
        withWildcardSubresource.add(res);
      }
      if (res.equals(WILDCARD)) {
        subresourcesOfWildcard.add(sub);
      }
    }
    if (resources.size() > 1 && doubleWildcard) {
      errors.add(FieldErrors.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
    }
    if (singleWildcard && withoutSubresource) {
      errors.add(FieldErrors.invalid(path, resources,
          "if '*' is present, must not specify other resources without subresources"));
    }
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's validation of what admission policies match (pkg/apis/admissionregistration/validation):
 * a {@code MatchResources} ({@code validateMatchResources}: matchPolicy, the two selectors,
 * resourceRules and excludeResourceRules), each {@code NamedRuleWithOperations}
 * ({@code validateNamedRuleWithOperations}: resourceNames as path segments without repeats, then
 * operations, apiGroups, apiVersions, resources with subresources, scope). Stateless.
 */
final class AdmissionMatchValidation {

  static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
  static final List<String> OPERATIONS = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
  static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");

  private AdmissionMatchValidation() {
  }

  /** kube's {@code validateMatchResources}; nothing for a missing {@code mc}. */
  static void matchResources(JsonNode mc, String path, List<Status.Cause> errors) {
    if (mc == null || !mc.isObject()) {
      return;
    }
    JsonNode matchPolicy = mc.get("matchPolicy");
    if (!NumericFields.given(matchPolicy)) {
      errors.add(FieldErrors.required(path + ".matchPolicy", ""));
    } else if (!MATCH_POLICIES.contains(matchPolicy.asText())) {
      errors.add(FieldErrors.notSupported(path + ".matchPolicy", matchPolicy.asText(), MATCH_POLICIES));
    }
    for (String selector : List.of("namespaceSelector", "objectSelector")) {
      if (!NumericFields.given(mc.get(selector))) {
        errors.add(FieldErrors.required(path + "." + selector, ""));
      } else {
        LabelSelectorValidation.validate(mc.get(selector), path + "." + selector, errors);
      }
    }
    for (String rules : List.of("resourceRules", "excludeResourceRules")) {
      JsonNode list = mc.path(rules);
      for (int i = 0; i < list.size(); i++) {
        namedRule(list.get(i), path + "." + rules + "[" + i + "]", errors);
      }
    }
  }

  /** kube's {@code validateNamedRuleWithOperations}. */
  static void namedRule(JsonNode rule, String path, List<Status.Cause> errors) {
    Set<String> names = new HashSet<>();
    JsonNode resourceNames = rule.path("resourceNames");
    for (int i = 0; i < resourceNames.size(); i++) {
      String name = resourceNames.get(i).asText("");
      String at = path + ".resourceNames[" + i + "]";
      for (String msg : NameSyntax.isValidPathSegmentName(name)) {
        errors.add(FieldErrors.invalid(at, name, msg));
      }
      if (!names.add(name)) {
        errors.add(FieldErrors.duplicate(at, name));
      }
    }
    ruleWithOperations(rule, path, errors);
  }

  /** kube's {@code validateRuleWithOperations} (subresources allowed). */
  static void ruleWithOperations(JsonNode rule, String path, List<Status.Cause> errors) {
    List<String> operations = texts(rule.path("operations"));
    if (operations.isEmpty()) {
      errors.add(FieldErrors.required(path + ".operations", ""));
    }
    if (operations.size() > 1 && operations.contains("*")) {
      errors.add(FieldErrors.invalid(path + ".operations", operations, "if '*' is present, must not specify other operations"));
    }
    for (int i = 0; i < operations.size(); i++) {
      if (!OPERATIONS.contains(operations.get(i))) {
        errors.add(FieldErrors.notSupported(path + ".operations[" + i + "]", operations.get(i), OPERATIONS));
      }
    }
    List<String> groups = texts(rule.path("apiGroups"));
    if (groups.isEmpty()) {
      errors.add(FieldErrors.required(path + ".apiGroups", ""));
    }
    if (groups.size() > 1 && groups.contains("*")) {
      errors.add(FieldErrors.invalid(path + ".apiGroups", groups, "if '*' is present, must not specify other API groups"));
    }
    List<String> versions = texts(rule.path("apiVersions"));
    if (versions.isEmpty()) {
      errors.add(FieldErrors.required(path + ".apiVersions", ""));
    }
    if (versions.size() > 1 && versions.contains("*")) {
      errors.add(FieldErrors.invalid(path + ".apiVersions", versions,
          "if '*' is present, must not specify other API versions"));
    }
    for (int i = 0; i < versions.size(); i++) {
      if (versions.get(i).isEmpty()) {
        errors.add(FieldErrors.required(path + ".apiVersions[" + i + "]", ""));
      }
    }
    resources(texts(rule.path("resources")), path + ".resources", errors);
    JsonNode scope = rule.get("scope");
    if (NumericFields.given(scope) && !SCOPES.contains(scope.asText())) {
      errors.add(FieldErrors.notSupported(path + ".scope", scope.asText(), SCOPES));
    }
  }

  /** kube's {@code validateResources}. */
  private static void resources(List<String> resources, String path, List<Status.Cause> errors) {
    if (resources.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
    }
    Set<String> withWildcardSub = new HashSet<>();
    Set<String> subWithWildcardRes = new HashSet<>();
    boolean doubleWildcard = false;
    boolean singleWildcard = false;
    boolean withoutSub = false;
    for (int i = 0; i < resources.size(); i++) {
      String resSub = resources.get(i);
      String at = path + "[" + i + "]";
      if (resSub.isEmpty()) {
        errors.add(FieldErrors.required(at, ""));
        continue;
      }
      doubleWildcard |= resSub.equals("*/*");
      singleWildcard |= resSub.equals("*");
      int slash = resSub.indexOf('/');
      if (slash < 0) {
        withoutSub = !resSub.equals("*");
        continue;
      }
      String res = resSub.substring(0, slash);
      String sub = resSub.substring(slash + 1);
      if (withWildcardSub.contains(res)) {
        errors.add(FieldErrors.invalid(at, resSub, "if '" + res + "/*' is present, must not specify " + resSub));
      }
      if (subWithWildcardRes.contains(sub)) {
        errors.add(FieldErrors.invalid(at, resSub, "if '*/" + sub + "' is present, must not specify " + resSub));
      }
      if (sub.equals("*")) {
        withWildcardSub.add(res);
      }
      if (res.equals("*")) {
        subWithWildcardRes.add(sub);
      }
    }
    if (resources.size() > 1 && doubleWildcard) {
      errors.add(FieldErrors.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
    }
    if (singleWildcard && withoutSub) {
      errors.add(FieldErrors.invalid(path, resources,
          "if '*' is present, must not specify other resources without subresources"));
    }
  }

  static List<String> texts(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(v -> out.add(v.asText("")));
    return out;
  }
}

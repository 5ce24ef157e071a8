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
 * the rule itself, as {@link RuleWithOperationsValidation} checks a webhook's). Stateless.
 */
final class AdmissionMatchValidation {

  static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");

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
    RuleWithOperationsValidation.validate(rule, path, errors);
  }

  static List<String> texts(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(v -> out.add(v.asText("")));
    return out;
  }
}

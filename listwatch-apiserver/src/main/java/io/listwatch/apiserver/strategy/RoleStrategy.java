package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;

/**
 * Roles and ClusterRoles (rbac.authorization.k8s.io/v1), kube's {@code ValidateRole} and
 * {@code ValidateClusterRole} (the same on update): each rule has verbs, and is either a
 * resource rule (API groups and resources) or, in a ClusterRole only, a non-resource rule
 * (URLs, and nothing of a resource rule); a ClusterRole's {@code aggregationRule} has at least
 * one valid selector. The server's RBAC authorizer and escalation check, which read these
 * objects, stay in the server. Stateless; {@link ClusterRoleStrategy} is the cluster-scoped kind's.
 */
class RoleStrategy implements RestStrategy {

  private final boolean namespaced;

  /** A Role's strategy. */
  RoleStrategy() {
    this(true);
  }

  /** @param namespaced a Role (true) or a ClusterRole (false) */
  RoleStrategy(boolean namespaced) {
    this.namespaced = namespaced;
  }

  @Override
  public void validate(ObjectNode role, ObjectNode old, List<Status.Cause> errors) {
    JsonNode rules = role.path("rules");
    for (int i = 0; i < rules.size(); i++) {
      rule(rules.get(i), "rules[" + i + "]", errors);
    }
    JsonNode aggregation = role.path("aggregationRule");
    if (!namespaced && NumericFields.given(aggregation)) {
      String path = "aggregationRule.clusterRoleSelectors";
      JsonNode selectors = aggregation.path("clusterRoleSelectors");
      if (selectors.isEmpty()) {
        errors.add(FieldErrors.required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil"));
      }
      for (int i = 0; i < selectors.size(); i++) {
        if (!LabelSelectorValidation.validate(selectors.get(i), path + "[" + i + "]", errors)) {
          // kube prints the selector it failed to make, which is nil
          errors.add(FieldErrors.invalid(path + "[" + i + "]", null, "invalid label selector."));
        }
      }
    }
  }

  /** kube's {@code ValidatePolicyRule}. */
  private void rule(JsonNode rule, String path, List<Status.Cause> errors) {
    if (rule.path("verbs").isEmpty()) {
      errors.add(FieldErrors.required(path + ".verbs", "verbs must contain at least one value"));
    }
    JsonNode urls = rule.path("nonResourceURLs");
    if (!urls.isEmpty()) {
      List<String> shown = new ArrayList<>();
      urls.forEach(u -> shown.add(u.asText("")));
      if (namespaced) {
        errors.add(FieldErrors.invalid(path + ".nonResourceURLs", shown, "namespaced rules cannot apply to non-resource URLs"));
      }
      if (!rule.path("apiGroups").isEmpty() || !rule.path("resources").isEmpty() || !rule.path("resourceNames").isEmpty()) {
        errors.add(FieldErrors.invalid(path + ".nonResourceURLs", shown,
            "rules cannot apply to both regular resources and non-resource URLs"));
      }
      return;
    }
    if (rule.path("apiGroups").isEmpty()) {
      errors.add(FieldErrors.required(path + ".apiGroups", "resource rules must supply at least one api group"));
    }
    if (rule.path("resources").isEmpty()) {
      errors.add(FieldErrors.required(path + ".resources", "resource rules must supply at least one resource"));
    }
  }
}

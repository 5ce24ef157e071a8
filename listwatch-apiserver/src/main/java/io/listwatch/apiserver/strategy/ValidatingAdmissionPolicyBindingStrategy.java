package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * ValidatingAdmissionPolicyBindings (admissionregistration.k8s.io/v1), kube's strategy, defaults
 * and validation. Defaults: those of its {@code matchResources} (as a policy's
 * matchConstraints); the generation follows the spec.
 *
 * <p>Validation ({@code ValidateValidatingAdmissionPolicyBinding}, on create and update alike):
 * policyName required, a DNS-1123 subdomain; paramRef (a path-segment name or a selector, not
 * both, not neither; parameterNotFoundAction required, Allow or Deny); matchResources (at kube's
 * misspelt path {@code spec.matchResouces}); validationActions (at least one of Deny, Warn,
 * Audit, no repeats, not both Deny and Warn).
 *
 * <p>Not here: kube's check that the writer may read the params. Stateless.
 */
final class ValidatingAdmissionPolicyBindingStrategy implements RestStrategy {

  private static final List<String> ACTIONS = List.of("Audit", "Deny", "Warn");
  private static final List<String> NOT_FOUND_ACTIONS = List.of("Deny", "Allow");

  @Override
  public void defaults(ObjectNode obj) {
    ValidatingAdmissionPolicyStrategy.matchResourcesDefaults(obj.path("spec").get("matchResources"));
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    String policyName = spec.path("policyName").asText("");
    if (policyName.isEmpty()) {
      errors.add(FieldErrors.required("spec.policyName", ""));
    } else {
      for (String msg : NameSyntax.isDns1123Subdomain(policyName)) {
        errors.add(FieldErrors.invalid("spec.policyName", policyName, msg));
      }
    }
    paramRef(spec.get("paramRef"), errors);
    AdmissionMatchValidation.matchResources(spec.get("matchResources"), "spec.matchResouces", errors);
    validationActions(spec.path("validationActions"), errors);
  }

  private static void paramRef(JsonNode pr, List<Status.Cause> errors) {
    if (pr == null || !pr.isObject()) {
      return;
    }
    String path = "spec.paramRef";
    String name = pr.path("name").asText("");
    boolean hasSelector = NumericFields.given(pr.get("selector"));
    if (!name.isEmpty()) {
      for (String msg : NameSyntax.isValidPathSegmentName(name)) {
        errors.add(FieldErrors.invalid(path + ".name", name, msg));
      }
      if (hasSelector) {
        errors.add(FieldErrors.forbidden(path + ".name", "name and selector are mutually exclusive"));
      }
    }
    if (hasSelector) {
      LabelSelectorValidation.validate(pr.get("selector"), path + ".selector", errors);
      if (!name.isEmpty()) {
        errors.add(FieldErrors.forbidden(path + ".selector", "name and selector are mutually exclusive"));
      }
    }
    if (name.isEmpty() && !hasSelector) {
      errors.add(FieldErrors.required(path, "one of name or selector must be specified"));
    }
    String action = pr.path("parameterNotFoundAction").asText("");
    if (action.isEmpty()) {
      errors.add(FieldErrors.required(path + ".parameterNotFoundAction", ""));
    } else if (!NOT_FOUND_ACTIONS.contains(action)) {
      errors.add(FieldErrors.notSupported(path + ".parameterNotFoundAction", action, NOT_FOUND_ACTIONS));
    }
  }

  private static void validationActions(JsonNode actions, List<Status.Cause> errors) {
    String path = "spec.validationActions";
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < actions.size(); i++) {
      String action = actions.get(i).asText("");
      if (!ACTIONS.contains(action)) {
        errors.add(FieldErrors.notSupported(path + "[" + i + "]", action, ACTIONS));
      }
      if (!seen.add(action)) {
        errors.add(FieldErrors.duplicate(path + "[" + i + "]", action));
      }
    }
    if (seen.contains("Deny") && seen.contains("Warn")) {
      errors.add(FieldErrors.invalid(path, AdmissionMatchValidation.texts(actions),
          "must not contain both Deny and Warn (repeating the same validation failure information in the API"
              + " response and headers serves no purpose)"));
    }
    if (seen.isEmpty()) {
      errors.add(FieldErrors.required(path, "at least one validation action is required"));
    }
  }
}

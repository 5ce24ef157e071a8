package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression;
import io.listwatch.apiserver.apiextensions.cel.AdmissionCompiler;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.ReturnType;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1), kube's strategy, defaults and
 * validation. Defaults ({@code SetDefaults_ValidatingAdmissionPolicySpec},
 * {@code SetDefaults_MatchResources}, {@code SetDefaults_Rule}): {@code failurePolicy: Fail},
 * {@code matchConstraints.matchPolicy: Equivalent}, empty namespace and object selectors, each
 * rule's {@code scope: "*"}. The status is dropped on create and kept on update (the definition's
 * status rules); the generation follows the spec.
 *
 * <p>Validation ({@code ValidateValidatingAdmissionPolicy}, on create and update alike):
 * failurePolicy; paramKind (apiVersion as a group/version, kind as a DNS-1035 label in any case);
 * matchConstraints required, with at least one resourceRule ({@link AdmissionMatchValidation});
 * matchConditions (at most 64, names qualified and unique, expressions compiled to bool);
 * variables (CEL identifiers, expressions compiled); validations or auditAnnotations required;
 * each validation's expression (bool), messageExpression (string), message (no line breaks) and
 * reason (Unauthorized, Forbidden, Invalid, RequestEntityTooLarge); at most 20 auditAnnotations,
 * {@code <name>/<key>} a qualified name, keys unique, valueExpressions (string or null) at most
 * 5 KiB. Expressions compile in kube's admission environment
 * ({@link AdmissionExpression}); unlike kube, expressions stored before an update are not
 * re-checked with a laxer environment. {@code /status}: kube's
 * {@code validateValidatingAdmissionPolicyStatus} for the type-checking warnings.
 *
 * <p>Not here: kube's check that the writer may read the paramKind's resource (its authorizer).
 * Stateless.
 */
final class ValidatingAdmissionPolicyStrategy implements RestStrategy {

  private static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
  private static final List<String> REASONS = List.of("Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized");
  private static final int MAX_AUDIT_ANNOTATIONS = 20;
  private static final int MAX_VALUE_EXPRESSION_LENGTH = 5 * 1024;
  private static final int MAX_MATCH_CONDITIONS = 64;
  private static final Pattern CEL_IDENTIFIER = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");
  private static final Set<String> CEL_RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
      "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var",
      "void", "while");

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", false);
    if (spec == null) {
      return;
    }
    Fields.defaultIfAbsent(spec, "failurePolicy", "Fail");
    matchResourcesDefaults(spec.get("matchConstraints"));
  }

  /** kube's {@code SetDefaults_MatchResources} and {@code SetDefaults_Rule} on {@code mc}, when it is an object. */
  static void matchResourcesDefaults(JsonNode mc) {
    if (!(mc instanceof ObjectNode m)) {
      return;
    }
    Fields.defaultIfAbsent(m, "matchPolicy", "Equivalent");
    for (String selector : List.of("namespaceSelector", "objectSelector")) {
      if (!NumericFields.given(m.get(selector))) {
        m.putObject(selector);
      }
    }
    for (String rules : List.of("resourceRules", "excludeResourceRules")) {
      for (JsonNode rule : m.path(rules)) {
        if (rule instanceof ObjectNode r) {
          Fields.defaultIfAbsent(r, "scope", "*");
        }
      }
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String name = obj.path("metadata").path("name").asText("");
    JsonNode spec = obj.path("spec");
    JsonNode failurePolicy = spec.get("failurePolicy");
    if (!NumericFields.given(failurePolicy)) {
      errors.add(FieldErrors.required("spec.failurePolicy", ""));
    } else if (!FAILURE_POLICIES.contains(failurePolicy.asText())) {
      errors.add(FieldErrors.notSupported("spec.failurePolicy", failurePolicy.asText(), FAILURE_POLICIES));
    }
    boolean hasParams = spec.path("paramKind").isObject();
    if (hasParams) {
      paramKind(spec.get("paramKind"), errors);
    }
    JsonNode mc = spec.get("matchConstraints");
    if (mc == null || !mc.isObject()) {
      errors.add(FieldErrors.required("spec.matchConstraints", ""));
    } else {
      AdmissionMatchValidation.matchResources(mc, "spec.matchConstraints", errors);
      if (mc.path("resourceRules").isEmpty()) {
        errors.add(FieldErrors.required("spec.matchConstraints.resourceRules", ""));
      }
    }
    matchConditions(spec.path("matchConditions"), hasParams, errors);
    JsonNode variables = spec.path("variables");
    AdmissionCompiler d = AdmissionCompiler.of(hasParams, !variables.isEmpty());
    for (int i = 0; i < variables.size(); i++) {
      variable(variables.get(i), d, "spec.variables[" + i + "]", errors);
    }
    JsonNode validations = spec.path("validations");
    JsonNode audits = spec.path("auditAnnotations");
    if (validations.isEmpty() && audits.isEmpty()) {
      String msg = "validations or auditAnnotations must contain at least one item";
      errors.add(FieldErrors.required("spec.validations", msg));
      errors.add(FieldErrors.required("spec.auditAnnotations", msg));
      return;
    }
    for (int i = 0; i < validations.size(); i++) {
      validation(validations.get(i), d, "spec.validations[" + i + "]", errors);
    }
    if (audits.size() > MAX_AUDIT_ANNOTATIONS) {
      errors.add(FieldErrors.invalidOmitValue("spec.auditAnnotations",
          "must not have more than " + MAX_AUDIT_ANNOTATIONS + " auditAnnotations"));
    }
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < audits.size(); i++) {
      String at = "spec.auditAnnotations[" + i + "]";
      String key = audits.get(i).path("key").asText("");
      auditAnnotation(name, audits.get(i), d, at, errors);
      if (!keys.add(key)) {
        errors.add(FieldErrors.duplicate(at + ".key", key));
      }
    }
  }

  private static void paramKind(JsonNode pk, List<Status.Cause> errors) {
    String apiVersion = pk.path("apiVersion").asText("");
    String at = "spec.paramKind.apiVersion";
    if (apiVersion.isEmpty()) {
      errors.add(FieldErrors.required(at, ""));
    } else if (apiVersion.chars().filter(c -> c == '/').count() > 1) {
      errors.add(FieldErrors.invalid(at, apiVersion, "unexpected GroupVersion string: " + apiVersion));
    } else if (!apiVersion.equals("/")) {
      int slash = apiVersion.indexOf('/');
      String group = slash < 0 ? "" : apiVersion.substring(0, slash);
      String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
      if (!group.isEmpty()) {
        List<String> errs = NameSyntax.isDns1123Subdomain(group);
        if (!errs.isEmpty()) {
          errors.add(FieldErrors.invalid(at, group, String.join(",", errs)));
        }
      }
      if (version.isEmpty()) {
        errors.add(FieldErrors.invalid(at, apiVersion, "version must be specified"));
      } else {
        List<String> errs = NameSyntax.isDns1035Label(version);
        if (!errs.isEmpty()) {
          errors.add(FieldErrors.invalid(at, version, String.join(",", errs)));
        }
      }
    } else {
      errors.add(FieldErrors.invalid(at, apiVersion, "version must be specified"));
    }
    String kind = pk.path("kind").asText("");
    if (kind.isEmpty()) {
      errors.add(FieldErrors.required("spec.paramKind.kind", ""));
    } else {
      List<String> errs = NameSyntax.isDns1035Label(kind.toLowerCase(java.util.Locale.ROOT));
      if (!errs.isEmpty()) {
        errors.add(FieldErrors.invalid("spec.paramKind.kind", kind,
            "may have mixed case, but should otherwise match: " + String.join(",", errs)));
      }
    }
  }

  /** kube's {@code validateMatchConditions} (params allowed with a paramKind; no variables). */
  static void matchConditions(JsonNode conditions, boolean hasParams, List<Status.Cause> errors) {
    String path = "spec.matchConditions";
    if (conditions.size() > MAX_MATCH_CONDITIONS) {
      errors.add(FieldErrors.tooMany(path, conditions.size(), MAX_MATCH_CONDITIONS));
    }
    Set<String> names = new HashSet<>();
    AdmissionCompiler d = AdmissionCompiler.of(hasParams, false);
    for (int i = 0; i < conditions.size(); i++) {
      JsonNode c = conditions.get(i);
      String at = path + "[" + i + "]";
      String expression = c.path("expression").asText("").strip();
      if (expression.isEmpty()) {
        errors.add(FieldErrors.required(at + ".expression", ""));
      } else {
        compile(expression, ReturnType.BOOL, d, at + ".expression", errors);
      }
      String name = c.path("name").asText("");
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(at + ".name", ""));
      } else {
        for (String msg : NameSyntax.isQualifiedName(name)) {
          errors.add(FieldErrors.invalid(at + ".name", name, msg));
        }
        if (!names.add(name)) {
          errors.add(FieldErrors.duplicate(at + ".name", name));
        }
      }
    }
  }

  private static void variable(JsonNode v, AdmissionCompiler d, String at, List<Status.Cause> errors) {
    String name = v.path("name").asText("");
    if (name.isBlank()) {
      errors.add(FieldErrors.required(at + ".name", "name is not specified"));
    } else if (!CEL_IDENTIFIER.matcher(name).matches() || CEL_RESERVED.contains(name)) {
      errors.add(FieldErrors.invalid(at + ".name", name, "name is not a valid CEL identifier"));
    }
    String expression = v.path("expression").asText("");
    if (expression.isBlank()) {
      errors.add(FieldErrors.required(at + ".expression", "expression is not specified"));
    } else {
      try {
        d.compileVariable(name, expression);
      } catch (AdmissionExpression.CompileError e) {
        errors.add(FieldErrors.invalid(at + ".expression", expression, e.getMessage()));
      }
    }
  }

  private static void validation(JsonNode v, AdmissionCompiler d, String at, List<Status.Cause> errors) {
    String expression = v.path("expression").asText("");
    if (expression.isBlank()) {
      errors.add(FieldErrors.required(at + ".expression", "expression is not specified"));
    } else {
      compile(expression, ReturnType.BOOL, d, at + ".expression", errors);
    }
    String messageExpression = v.path("messageExpression").asText("");
    if (!messageExpression.isEmpty() && messageExpression.isBlank()) {
      errors.add(FieldErrors.invalid(at + ".messageExpression", messageExpression, "must be non-empty if specified"));
    } else if (!messageExpression.isBlank()) {
      compile(messageExpression, ReturnType.STRING, d, at + ".messageExpression", errors);
    }
    String message = v.path("message").asText("");
    if (!message.isEmpty() && message.isBlank()) {
      errors.add(FieldErrors.invalid(at + ".message", message, "message must be non-empty if specified"));
    } else if (message.strip().contains("\n") || message.strip().contains("\r")) {
      errors.add(FieldErrors.invalid(at + ".message", message, "message must not contain line breaks"));
    }
    JsonNode reason = v.get("reason");
    if (NumericFields.given(reason) && !REASONS.contains(reason.asText())) {
      errors.add(FieldErrors.notSupported(at + ".reason", reason.asText(), REASONS));
    }
  }

  private static void auditAnnotation(String policyName, JsonNode a, AdmissionCompiler d, String at,
      List<Status.Cause> errors) {
    String key = a.path("key").asText("");
    if (!policyName.isEmpty()) {
      for (String msg : NameSyntax.isQualifiedName(policyName + "/" + key)) {
        errors.add(FieldErrors.invalid(at + ".key", policyName + "/" + key, msg));
      }
    } else {
      errors.add(FieldErrors.invalid(at + ".key", key, "requires metadata.name be non-empty"));
    }
    String value = a.path("valueExpression").asText("").strip();
    if (value.isEmpty()) {
      errors.add(FieldErrors.required(at + ".valueExpression", "valueExpression is not specified"));
    } else if (value.length() > MAX_VALUE_EXPRESSION_LENGTH) {
      errors.add(FieldErrors.required(at + ".valueExpression",
          "must not exceed " + MAX_VALUE_EXPRESSION_LENGTH + " bytes in length"));
    } else {
      try {
        d.compile(value, ReturnType.STRING_OR_NULL);
      } catch (AdmissionExpression.CompileError e) {
        errors.add(FieldErrors.invalid(at + ".valueExpression", a.path("valueExpression").asText(""), e.getMessage()));
      }
    }
  }

  private static void compile(String expression, ReturnType type, AdmissionCompiler d, String at,
      List<Status.Cause> errors) {
    try {
      d.compile(expression, type);
    } catch (AdmissionExpression.CompileError e) {
      errors.add(FieldErrors.invalid(at, expression, e.getMessage()));
    }
  }

  /** {@code /status}: kube's {@code validateValidatingAdmissionPolicyStatus} (type-checking warnings). */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new java.util.ArrayList<>();
    JsonNode warnings = obj.path("status").path("typeChecking").path("expressionWarnings");
    for (int i = 0; i < warnings.size(); i++) {
      String at = "status.typeChecking.expressionWarnings[" + i + "]";
      if (warnings.get(i).path("warning").asText("").isEmpty()) {
        errors.add(FieldErrors.required(at + ".warning", ""));
      }
      if (warnings.get(i).path("fieldRef").asText("").isBlank()) {
        errors.add(FieldErrors.required(at + ".fieldRef", ""));
      }
    }
    StatusValidation.refuse("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", obj, errors);
  }
}

package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.CompileError;
import io.listwatch.apiserver.apiextensions.cel.AdmissionCompiler;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.EvaluationError;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.ReturnType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One ValidatingAdmissionPolicy's expressions, compiled once per resourceVersion of the policy,
 * and their evaluation for one request and one param: kube's {@code validating.validator}. An
 * expression that does not compile is kept as its error, which each evaluation reports as
 * {@code compilation error: ...}, as kube does.
 *
 * <p>Evaluation ({@link #validate}): the {@code matchConditions} first (any false: the policy
 * does not apply; errors with none false: the failure policy decides), then each validation
 * (false: a denial with the messageExpression's result, else the message, else
 * {@code failed expression: <expression>}; an error: a denial under {@code failurePolicy:
 * Fail}), then the auditAnnotations. Variables ({@code variables.<name>}) are evaluated lazily,
 * at most once per evaluation ({@link PolicyVariables}).
 *
 * <p>Immutable and thread-safe.
 */
final class CompiledPolicy {

  /** One expression of the policy, compiled, or the reason it did not compile. */
  record Compiled(String text, AdmissionExpression expression, String error) {

    static Compiled of(String text, ReturnType type, AdmissionCompiler compiler) {
      try {
        return new Compiled(text, compiler.compile(text, type), null);
      } catch (CompileError e) {
        return new Compiled(text, null, e.getMessage());
      }
    }

    static Compiled variable(String name, String text, AdmissionCompiler compiler) {
      try {
        return new Compiled(text, compiler.compileVariable(name, text), null);
      } catch (CompileError e) {
        return new Compiled(text, null, e.getMessage());
      }
    }

    /** kube's filter: the result, or the error text kube reports for this expression. */
    Object evaluate(Map<String, Object> activation) throws EvaluationError {
      if (expression == null) {
        throw new EvaluationError("compilation error: " + error);
      }
      try {
        return expression.evaluate(activation);
      } catch (EvaluationError e) {
        throw new EvaluationError("expression '" + text + "' resulted in error: " + e.getMessage());
      }
    }
  }

  record Validation(Compiled expression, String message, Compiled messageExpression, String reason) {
  }

  record AuditAnnotation(String key, Compiled value) {
  }

  record MatchCondition(String name, Compiled expression) {
  }

  /** What a validation (or an error) decided: kube's {@code PolicyDecision}. */
  record Decision(boolean deny, String message, String reason) {
  }

  /** An audit annotation's outcome: a value to publish, or an error (null value and error: excluded). */
  record AnnotationResult(String key, String value, String error) {
  }

  /** The outcome of one evaluation: kube's {@code ValidateResult}. */
  record Result(List<Decision> decisions, List<AnnotationResult> annotations) {
    static final Result NONE = new Result(List.of(), List.of());
  }

  final String failurePolicy;
  private final List<MatchCondition> matchConditions = new ArrayList<>();
  private final List<Validation> validations = new ArrayList<>();
  private final List<AuditAnnotation> auditAnnotations = new ArrayList<>();
  private final Map<String, Compiled> variables = new LinkedHashMap<>();

  CompiledPolicy(JsonNode policy) {
    JsonNode spec = policy.path("spec");
    this.failurePolicy = spec.path("failurePolicy").asText("Fail");
    AdmissionCompiler d = AdmissionCompiler.of(spec.path("paramKind").isObject(), !spec.path("variables").isEmpty());
    for (JsonNode v : spec.path("variables")) {
      String name = v.path("name").asText("");
      variables.put(name, Compiled.variable(name, v.path("expression").asText(""), d));
    }
    for (JsonNode m : spec.path("matchConditions")) {
      matchConditions.add(new MatchCondition(m.path("name").asText(""),
          Compiled.of(m.path("expression").asText(""), ReturnType.BOOL, d)));
    }
    for (JsonNode v : spec.path("validations")) {
      String messageExpression = v.path("messageExpression").asText("");
      validations.add(new Validation(Compiled.of(v.path("expression").asText(""), ReturnType.BOOL, d),
          v.path("message").asText(""),
          messageExpression.isBlank() ? null : Compiled.of(messageExpression, ReturnType.STRING, d),
          v.hasNonNull("reason") ? v.get("reason").asText() : null));
    }
    for (JsonNode a : spec.path("auditAnnotations")) {
      auditAnnotations.add(new AuditAnnotation(a.path("key").asText(""),
          Compiled.of(a.path("valueExpression").asText("").strip(), ReturnType.STRING_OR_NULL, d)));
    }
  }

  private boolean ignore() {
    return failurePolicy.equals("Ignore");
  }

  /**
   * Evaluates the policy with {@code bindings} (object, oldObject, request, params,
   * namespaceObject as CEL values).
   */
  Result validate(Map<String, Object> bindings) {
    Map<String, Object> activation = new java.util.HashMap<>(bindings);
    activation.put("variables", new PolicyVariables(variables, activation));
    String matchError = matchConditionsError(activation);
    if (matchError == null) {
      return Result.NONE;
    }
    if (!matchError.isEmpty()) {
      return new Result(ignore() ? List.of(new Decision(false, matchError, null))
          : List.of(new Decision(true, matchError, null)), List.of());
    }
    List<Decision> decisions = new ArrayList<>();
    for (Validation v : validations) {
      Object result;
      try {
        result = v.expression().evaluate(activation);
      } catch (EvaluationError e) {
        decisions.add(new Decision(!ignore(), e.getMessage(), null));
        continue;
      }
      if (Boolean.TRUE.equals(result)) {
        decisions.add(new Decision(false, "", null));
        continue;
      }
      decisions.add(new Decision(true, message(v, activation), v.reason() == null ? "Invalid" : v.reason()));
    }
    List<AnnotationResult> annotations = new ArrayList<>();
    for (AuditAnnotation a : auditAnnotations) {
      annotations.add(annotation(a, activation));
    }
    return new Result(decisions, annotations);
  }

  /** null: a condition is false; "": all passed; else the errors' text (kube's aggregate). */
  private String matchConditionsError(Map<String, Object> activation) {
    List<String> errors = new ArrayList<>();
    for (MatchCondition m : matchConditions) {
      try {
        if (Boolean.FALSE.equals(m.expression().evaluate(activation))) {
          return null;
        }
      } catch (EvaluationError e) {
        errors.add(e.getMessage());
      }
    }
    if (errors.isEmpty()) {
      return "";
    }
    if (ignore()) {
      return null;
    }
    return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
  }

  /** kube's choice of a failed validation's message. */
  private static String message(Validation v, Map<String, Object> activation) {
    if (v.messageExpression() != null) {
      try {
        if (v.messageExpression().evaluate(activation) instanceof String s) {
          String m = s.strip();
          if (!m.isEmpty() && m.length() <= MAX_EVALUATED_MESSAGE_BYTES && !m.contains("\n")) {
            return m;
          }
        }
      } catch (EvaluationError e) {
        // kube logs it and falls back to the message
      }
    }
    if (!v.message().isEmpty()) {
      return v.message().strip();
    }
    return "failed expression: " + v.expression().text().strip();
  }

  /** kube's {@code MaxEvaluatedMessageExpressionSizeBytes}. */
  private static final int MAX_EVALUATED_MESSAGE_BYTES = 5 * 1024;

  private AnnotationResult annotation(AuditAnnotation a, Map<String, Object> activation) {
    Object value;
    try {
      value = a.value().evaluate(activation);
    } catch (EvaluationError e) {
      return ignore() ? new AnnotationResult(a.key(), null, null) : new AnnotationResult(a.key(), null, e.getMessage());
    }
    if (value instanceof String s) {
      String v = s.strip();
      return v.isEmpty() ? new AnnotationResult(a.key(), null, null) : new AnnotationResult(a.key(), v, null);
    }
    if (AdmissionExpression.isNull(value)) {
      return new AnnotationResult(a.key(), null, null);
    }
    return new AnnotationResult(a.key(), null, "valueExpression '" + a.value().text()
        + "' resulted in unsupported return type: " + celTypeName(value) + ". Return type must be either string or null.");
  }

  private static String celTypeName(Object value) {
    if (value instanceof Boolean) {
      return "bool";
    }
    if (value instanceof Long) {
      return "int";
    }
    if (value instanceof Double) {
      return "double";
    }
    if (value instanceof List) {
      return "list";
    }
    if (value instanceof Map) {
      return "map";
    }
    return value.getClass().getSimpleName();
  }
}

package io.listwatch.server.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.listwatch.api.schema.FieldError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles every {@code x-kubernetes-validations} rule of a structural schema, at any depth,
 * into a {@link CelValidator} tree, and collects the errors kube reports for rules that cannot
 * be used, at the rules' paths inside the CRD ({@code ...properties[spec]
 * .x-kubernetes-validations[0].rule}).
 *
 * <p>Confined to the thread compiling one schema; one instance per compilation.
 */
final class RuleCompiler {

  private static final String SELF = "self";
  private static final String OLD_SELF = "oldSelf";

  private final DeclTypes types = new DeclTypes();
  private final List<FieldError> errors = new ArrayList<>();

  /** The errors found so far, in schema order. */
  List<FieldError> errors() {
    return errors;
  }

  /**
   * The validator of values of {@code schema}, or null when no rule sits at or below it.
   *
   * @param path the schema's path in the CRD, for errors
   * @param name the name of the schema's struct type
   * @param uncorrelatable the path of the nearest enclosing list whose items cannot be
   *     correlated with the old list's (not a list-map), or null
   */
  CelValidator compile(JsonNode schema, boolean resourceRoot, String path, String name,
      String uncorrelatable) {
    if (schema == null || !schema.isObject()) {
      return null;
    }
    List<CompilationResult> rules = rules(schema, resourceRoot, path, name, uncorrelatable);
    Map<String, CelValidator> properties = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> p : Schemas.properties(schema).entrySet()) {
      String field = DeclTypes.escape(p.getKey());
      JsonNode sub = p.getValue();
      CelValidator v = compile(sub, Schemas.flag(sub, "x-kubernetes-embedded-resource"),
          path + ".properties[" + p.getKey() + "]",
          name + "." + (field == null ? p.getKey() : field), uncorrelatable);
      if (v != null) {
        properties.put(p.getKey(), v);
      }
    }
    CelValidator items = null;
    JsonNode itemsSchema = Schemas.items(schema);
    if (itemsSchema != null) {
      String itemsUncorrelatable = uncorrelatable != null || Schemas.listCorrelatable(schema)
          ? uncorrelatable : path;
      items = compile(itemsSchema, Schemas.flag(itemsSchema, "x-kubernetes-embedded-resource"),
          path + ".items", name + "@idx", itemsUncorrelatable);
    }
    CelValidator additional = null;
    JsonNode additionalSchema = Schemas.additionalProperties(schema);
    if (additionalSchema != null) {
      additional = compile(additionalSchema,
          Schemas.flag(additionalSchema, "x-kubernetes-embedded-resource"),
          path + ".additionalProperties", name + "@elem", uncorrelatable);
    }
    if (rules.isEmpty() && properties.isEmpty() && items == null && additional == null) {
      return null;
    }
    return new CelValidator(schema, resourceRoot, rules, properties, items, additional);
  }

  private List<CompilationResult> rules(JsonNode schema, boolean resourceRoot, String path,
      String name, String uncorrelatable) {
    List<ValidationRule> rules = ValidationRule.of(schema);
    List<CompilationResult> out = new ArrayList<>();
    if (rules.isEmpty()) {
      return out;
    }
    CelType self = types.typeOf(schema, resourceRoot, name);
    Cel plain = environment(self, self);
    Cel optional = environment(self, OptionalType.create(self));
    for (int i = 0; i < rules.size(); i++) {
      ValidationRule rule = rules.get(i);
      String at = path + ".x-kubernetes-validations[" + i + "]";
      if (!wellFormed(rule, at)) {
        continue;
      }
      String fieldPath = "";
      if (!rule.fieldPath().isEmpty()) {
        try {
          fieldPath = RuleFieldPath.normalize(rule.fieldPath(), schema);
        } catch (IllegalArgumentException e) {
          errors.add(FieldError.invalid(at + ".fieldPath", rule.fieldPath(),
              "fieldPath must be a valid path: " + e.getMessage()));
          continue;
        }
      }
      Cel cel = Boolean.TRUE.equals(rule.optionalOldSelf()) ? optional : plain;
      CelValidationResult compiled = cel.compile(rule.rule());
      if (compiled.hasError()) {
        errors.add(FieldError.invalid(at + ".rule", rule,
            "compilation failed: " + compiled.getErrorString()));
        continue;
      }
      CelAbstractSyntaxTree ast = ast(compiled);
      if (!ast.getResultType().equals(SimpleType.BOOL)
          && !ast.getResultType().equals(SimpleType.DYN)) {
        errors.add(FieldError.invalid(at + ".rule", rule,
            "compilation failed: cel expression must evaluate to a bool"));
        continue;
      }
      boolean usesOldSelf = usesOldSelf(ast);
      if (usesOldSelf && uncorrelatable != null) {
        errors.add(FieldError.invalid(at + ".rule", rule.rule(),
            "oldSelf cannot be used on the uncorrelatable portion of the schema within "
                + uncorrelatable));
        continue;
      }
      if (rule.optionalOldSelf() != null && !usesOldSelf) {
        errors.add(FieldError.forbidden(at + ".optionalOldSelf",
            "may not be set if the rule does not use oldSelf"));
        continue;
      }
      CelRuntime.Program message = null;
      if (!rule.messageExpression().isEmpty()) {
        CelValidationResult m = cel.compile(rule.messageExpression());
        if (m.hasError()) {
          errors.add(FieldError.invalid(at + ".messageExpression", rule,
              "messageExpression compilation failed: " + m.getErrorString()));
          continue;
        }
        CelAbstractSyntaxTree mast = ast(m);
        if (!mast.getResultType().equals(SimpleType.STRING)
            && !mast.getResultType().equals(SimpleType.DYN)) {
          errors.add(FieldError.invalid(at + ".messageExpression", rule,
              "must evaluate to a string"));
          continue;
        }
        message = program(cel, mast);
      }
      out.add(new CompilationResult(rule, program(cel, ast), message, usesOldSelf, fieldPath));
    }
    return out;
  }

  /** kube's checks of a rule's text before compiling it; false when the rule is unusable. */
  private boolean wellFormed(ValidationRule rule, String at) {
    String trimmedRule = rule.rule().strip();
    String trimmedMessage = rule.message().strip();
    boolean ok = true;
    if (trimmedRule.isEmpty()) {
      errors.add(FieldError.required(at + ".rule", "rule is not specified"));
      ok = false;
    } else if (!rule.message().isEmpty() && trimmedMessage.isEmpty()) {
      errors.add(FieldError.invalid(at + ".message", rule.message(),
          "message must be non-empty if specified"));
      ok = false;
    } else if (hasNewlines(trimmedMessage)) {
      errors.add(FieldError.invalid(at + ".message", rule.message(),
          "message must not contain line breaks"));
      ok = false;
    } else if (hasNewlines(trimmedRule) && trimmedMessage.isEmpty()) {
      errors.add(FieldError.required(at + ".message",
          "message must be specified if rule contains line breaks"));
      ok = false;
    }
    if (rule.reason() != null && !ValidationRule.SUPPORTED_REASONS.contains(rule.reason())) {
      errors.add(FieldError.notSupported(at + ".reason", rule.reason(),
          ValidationRule.SUPPORTED_REASONS));
      ok = false;
    }
    return ok;
  }

  private Cel environment(CelType self, CelType oldSelf) {
    return KubeCelLibrary.BASE.toCelBuilder()
        .setTypeProvider(types.provider())
        .addVar(SELF, self)
        .addVar(OLD_SELF, oldSelf)
        .build();
  }

  private static boolean usesOldSelf(CelAbstractSyntaxTree ast) {
    for (CelReference ref : ast.getReferenceMap().values()) {
      if (ref.name().equals(OLD_SELF)) {
        return true;
      }
    }
    return false;
  }

  private static CelAbstractSyntaxTree ast(CelValidationResult result) {
    try {
      return result.getAst();
    } catch (dev.cel.common.CelValidationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static CelRuntime.Program program(Cel cel, CelAbstractSyntaxTree ast) {
    try {
      return cel.createProgram(ast);
    } catch (CelEvaluationException e) {
      throw new IllegalStateException("a checked CEL expression did not plan: " + e, e);
    }
  }

  static boolean hasNewlines(String s) {
    return s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
  }
}

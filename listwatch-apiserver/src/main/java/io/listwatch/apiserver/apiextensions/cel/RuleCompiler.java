package io.listwatch.apiserver.apiextensions.cel;

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
  /** Errors in how rules are written; a node with any (or any below it) is not compiled. */
  private final List<FieldError> schemaErrors = new ArrayList<>();
  /** Errors compiling rules. */
  private final List<FieldError> celErrors = new ArrayList<>();

  /**
   * The errors found, as kube lists them: first those about how rules are written, then
   * those from compiling them; each group depth first, a node's children before the node.
   */
  List<FieldError> errors() {
    List<FieldError> all = new ArrayList<>(schemaErrors);
    all.addAll(celErrors);
    return all;
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
    int schemaErrorsBefore = schemaErrors.size();
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
    List<CompilationResult> rules =
        rules(schema, resourceRoot, path, name, uncorrelatable, schemaErrorsBefore);
    if (rules.isEmpty() && properties.isEmpty() && items == null && additional == null) {
      return null;
    }
    return new CelValidator(schema, resourceRoot, rules, properties, items, additional);
  }

  private List<CompilationResult> rules(JsonNode schema, boolean resourceRoot, String path,
      String name, String uncorrelatable, int schemaErrorsBefore) {
    List<ValidationRule> rules = ValidationRule.of(schema);
    List<CompilationResult> out = new ArrayList<>();
    if (rules.isEmpty()) {
      return out;
    }
    String at = path + ".x-kubernetes-validations";
    List<String> fieldPaths = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      fieldPaths.add(wellFormed(rules.get(i), at + "[" + i + "]", schema));
    }
    if (schemaErrors.size() > schemaErrorsBefore) {
      // as kube: rules are not compiled where they, or rules below them, are badly written
      return out;
    }
    CelType self = types.typeOf(schema, resourceRoot, name);
    Cel plain = null;
    Cel optional = null;
    for (int i = 0; i < rules.size(); i++) {
      ValidationRule rule = rules.get(i);
      String ruleAt = at + "[" + i + "]";
      Cel cel;
      if (Boolean.TRUE.equals(rule.optionalOldSelf())) {
        cel = optional = optional != null ? optional
            : environment(self, OptionalType.create(self));
      } else {
        cel = plain = plain != null ? plain : environment(self, self);
      }
      CompilationResult compiled = compile(cel, rule, ruleAt, fieldPaths.get(i));
      if (compiled == null) {
        continue;
      }
      if (compiled.usesOldSelf() && uncorrelatable != null) {
        celErrors.add(FieldError.invalid(ruleAt + ".rule", rule.rule(),
            "oldSelf cannot be used on the uncorrelatable portion of the schema within "
                + uncorrelatable));
      } else if (!compiled.usesOldSelf() && rule.optionalOldSelf() != null) {
        celErrors.add(FieldError.invalid(ruleAt + ".optionalOldSelf", rule.optionalOldSelf(),
            "may not be set if oldSelf is not used in rule"));
      } else if (compiled.program() != null && compiled.messageProgramOk()) {
        out.add(compiled);
      }
    }
    return out;
  }

  /**
   * kube's {@code compileRule}: the rule, then its messageExpression. Returns null when the rule
   * does not compile; a result whose {@link CompilationResult#messageProgramOk()} is false
   * when its messageExpression does not.
   */
  private CompilationResult compile(Cel cel, ValidationRule rule, String at, String fieldPath) {
    CelValidationResult compiled = cel.compile(rule.rule());
    if (compiled.hasError()) {
      celErrors.add(FieldError.invalid(at + ".rule", rule,
          "compilation failed: " + compiled.getErrorString()));
      return null;
    }
    CelAbstractSyntaxTree ast = ast(compiled);
    if (!ast.getResultType().equals(SimpleType.BOOL)) {
      celErrors.add(FieldError.invalid(at + ".rule", rule,
          "cel expression must evaluate to a bool"));
      return null;
    }
    boolean usesOldSelf = usesOldSelf(ast);
    CelRuntime.Program program = program(cel, ast);
    if (rule.messageExpression().isEmpty()) {
      return new CompilationResult(rule, program, null, true, usesOldSelf, fieldPath);
    }
    CelValidationResult m = cel.compile(rule.messageExpression());
    if (m.hasError()) {
      celErrors.add(FieldError.invalid(at + ".messageExpression", rule,
          "messageExpression compilation failed: " + m.getErrorString()));
      return new CompilationResult(rule, program, null, false, usesOldSelf, fieldPath);
    }
    CelAbstractSyntaxTree mast = ast(m);
    if (!mast.getResultType().equals(SimpleType.STRING)) {
      celErrors.add(FieldError.invalid(at + ".messageExpression", rule,
          "messageExpression must evaluate to a string"));
      return new CompilationResult(rule, program, null, false, usesOldSelf, fieldPath);
    }
    return new CompilationResult(rule, program, program(cel, mast), true, usesOldSelf,
        fieldPath);
  }

  /**
   * kube's checks of how a rule is written, before compiling it. Returns the rule's
   * {@code fieldPath} as a field path ("" when unset or invalid).
   */
  private String wellFormed(ValidationRule rule, String at, JsonNode schema) {
    String trimmedRule = rule.rule().strip();
    String trimmedMessage = rule.message().strip();
    if (trimmedRule.isEmpty()) {
      schemaErrors.add(FieldError.required(at + ".rule", "rule is not specified"));
    } else if (!rule.message().isEmpty() && trimmedMessage.isEmpty()) {
      schemaErrors.add(FieldError.invalid(at + ".message", rule.message(),
          "message must be non-empty if specified"));
    } else if (hasNewlines(trimmedMessage)) {
      schemaErrors.add(FieldError.invalid(at + ".message", rule.message(),
          "message must not contain line breaks"));
    } else if (hasNewlines(trimmedRule) && trimmedMessage.isEmpty()) {
      schemaErrors.add(FieldError.required(at + ".message",
          "message must be specified if rule contains line breaks"));
    }
    if (!rule.messageExpression().isEmpty() && rule.messageExpression().isBlank()) {
      schemaErrors.add(FieldError.required(at + ".messageExpression",
          "messageExpression must be non-empty if specified"));
    }
    if (rule.reason() != null && !ValidationRule.SUPPORTED_REASONS.contains(rule.reason())) {
      schemaErrors.add(FieldError.notSupported(at + ".reason", rule.reason(),
          ValidationRule.SUPPORTED_REASONS));
    }
    String fieldPath = rule.fieldPath();
    if (!fieldPath.isEmpty() && fieldPath.isBlank()) {
      schemaErrors.add(FieldError.invalid(at + ".fieldPath", fieldPath,
          "fieldPath must be non-empty if specified"));
    }
    if (hasNewlines(fieldPath)) {
      schemaErrors.add(FieldError.invalid(at + ".fieldPath", fieldPath,
          "fieldPath must not contain line breaks"));
    }
    if (!fieldPath.isEmpty()) {
      try {
        return RuleFieldPath.normalize(fieldPath, schema);
      } catch (IllegalArgumentException e) {
        schemaErrors.add(FieldError.invalid(at + ".fieldPath", fieldPath,
            "fieldPath must be a valid path"));
      }
    }
    return "";
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

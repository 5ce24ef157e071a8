package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.runtime.CelEvaluationException;
import io.listwatch.api.schema.FieldError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The compiled {@code x-kubernetes-validations} rules of one CustomResourceDefinition version's
 * schema, evaluated against custom resources: kube's {@code cel.Validator}. A tree parallel to
 * the schema, holding only the nodes at or above a rule.
 *
 * <p>Use: {@link #compileErrors} when a CRD is written (a rule that does not compile makes the
 * CRD invalid), {@link #compile} once per served version, then {@link #validate} on every
 * create and update of a custom resource, after pruning, defaulting and schema validation.
 *
 * <h2>Evaluation</h2>
 * Each rule is evaluated with {@code self} bound to every value at its schema location: the
 * object's field, each item of a list, each value of a map. Null values are not evaluated.
 * A transition rule (one that refers to {@code oldSelf}) is evaluated only on update and only
 * where an old value correlates with the new one: the same field of an object (unless
 * {@code x-kubernetes-map-type: atomic}), the same key of a map, the item with the same
 * {@code x-kubernetes-list-map-keys} of a list-map; never items of other lists. With
 * {@code optionalOldSelf: true} it is evaluated everywhere, {@code oldSelf} being an optional.
 *
 * <h2>Errors</h2>
 * A rule evaluating to false gives a {@link FieldError} at the rule's location (plus its
 * {@code fieldPath}), worded as kube words it: {@code Invalid value: "object": <message>},
 * the message being the {@code messageExpression}'s result, the {@code message}, or
 * {@code failed rule: <rule>}; {@code reason} picks Forbidden, Required or Duplicate instead.
 *
 * <h2>Cost</h2>
 * One evaluation may cost at most {@value RuntimeCost#PER_CALL_LIMIT} and all evaluations for
 * one write at most {@value RuntimeCost#RUNTIME_BUDGET} (see {@link RuntimeCost}); past either,
 * evaluation stops with kube's error.
 *
 * <h2>Thread-safety</h2>
 * Immutable once compiled; {@link #validate} is called concurrently by any number of threads.
 */
public final class CelValidator {

  private static final String BUDGET_EXCEEDED =
      "validation failed due to running out of cost budget, no further validation rules will"
          + " be run";

  private final JsonNode schema;
  private final boolean resourceRoot;
  private final List<CompilationResult> rules;
  private final Map<String, CelValidator> properties;
  private final CelValidator items;
  private final CelValidator additionalProperties;

  CelValidator(JsonNode schema, boolean resourceRoot, List<CompilationResult> rules,
      Map<String, CelValidator> properties, CelValidator items,
      CelValidator additionalProperties) {
    this.schema = schema;
    this.resourceRoot = resourceRoot;
    this.rules = List.copyOf(rules);
    this.properties = Map.copyOf(properties);
    this.items = items;
    this.additionalProperties = additionalProperties;
  }

  /**
   * The errors kube reports for the {@code x-kubernetes-validations} of a CRD version's schema:
   * rules that do not compile or do not return a bool, bad messages, reasons, field paths and
   * message expressions, transition rules under lists that cannot correlate items.
   *
   * @param openApiV3Schema the version's {@code openAPIV3Schema}, already found structural
   * @param path its path in the CRD, e.g. {@code spec.versions[0].schema.openAPIV3Schema}
   */
  public static List<FieldError> compileErrors(JsonNode openApiV3Schema, String path) {
    RuleCompiler compiler = new RuleCompiler();
    compiler.compile(openApiV3Schema, true, path, "Object", null);
    return List.copyOf(compiler.errors());
  }

  /**
   * The validator of custom resources of a CRD version. Rules that do not compile (which
   * {@link #compileErrors} rejects when the CRD is written) are left out.
   *
   * @param openApiV3Schema the version's structural {@code openAPIV3Schema}
   * @return the validator; it accepts everything when the schema has no rules
   */
  public static CelValidator compile(JsonNode openApiV3Schema) {
    CelValidator root = new RuleCompiler()
        .compile(openApiV3Schema, true, "openAPIV3Schema", "Object", null);
    return root != null ? root
        : new CelValidator(openApiV3Schema, true, List.of(), Map.of(), null, null);
  }

  /** Whether any rule is compiled; when not, {@link #validate} always returns no errors. */
  public boolean hasRules() {
    return !rules.isEmpty() || !properties.isEmpty() || items != null
        || additionalProperties != null;
  }

  /**
   * Evaluates every rule against a custom resource.
   *
   * @param object the new object (pruned and defaulted)
   * @param oldObject the stored object on update, null on create
   * @return kube's field errors, with paths from the object's root ({@code spec.replicas});
   *     empty when every rule holds
   */
  public List<FieldError> validate(JsonNode object, JsonNode oldObject) {
    return validate(object, oldObject, RuntimeCost.RUNTIME_BUDGET);
  }

  /**
   * The rules' errors to add to a write's schema errors, as kube's custom resource strategy
   * adds them: when schema validation found an error that leaves values unfit for the rules
   * (Required, Unsupported value, Too long, Too many, a wrong type), the rules are not run and a
   * single {@code <nil>: Invalid value: "null": some validation rules were not checked because
   * the object was invalid; correct the existing errors to complete validation} is returned
   * instead.
   *
   * @param schemaErrors the errors schema validation found for this write
   * @param object the new object
   * @param oldObject the stored object on update, null on create
   */
  public List<FieldError> validateAfterSchema(List<FieldError> schemaErrors, JsonNode object,
      JsonNode oldObject) {
    if (!hasRules()) {
      return List.of();
    }
    for (FieldError e : schemaErrors) {
      switch (e.type()) {
        case REQUIRED, NOT_SUPPORTED, TOO_LONG, TOO_MANY, TYPE_INVALID -> {
          return List.of(FieldError.invalid("<nil>", null, "some validation rules were not"
              + " checked because the object was invalid; correct the existing errors to"
              + " complete validation"));
        }
        default -> {
        }
      }
    }
    return validate(object, oldObject);
  }

  /** {@link #validate(JsonNode, JsonNode)} with another per-write cost budget. */
  List<FieldError> validate(JsonNode object, JsonNode oldObject, long costBudget) {
    List<FieldError> errors = new ArrayList<>();
    if (hasRules()) {
      validate("", object, oldObject, new long[] {costBudget}, errors);
    }
    return errors;
  }

  /** Returns false when the budget ran out and evaluation must stop. */
  private boolean validate(String path, JsonNode obj, JsonNode old, long[] budget,
      List<FieldError> errors) {
    if (obj == null || obj.isNull() || obj.isMissingNode()) {
      return true;
    }
    if (old != null && (old.isNull() || old.isMissingNode())) {
      old = null;
    }
    if (!rules.isEmpty() && !evaluate(path, obj, old, budget, errors)) {
      return false;
    }
    if (obj.isArray() && items != null) {
      Map<String, JsonNode> oldItems = correlatableItems(old);
      List<String> keys = Schemas.listCorrelatable(schema) ? listMapKeys() : List.of();
      for (int i = 0; i < obj.size(); i++) {
        JsonNode item = obj.get(i);
        JsonNode oldItem = oldItems.isEmpty() ? null : oldItems.get(key(item, keys));
        if (!items.validate(path + "[" + i + "]", item, oldItem, budget, errors)) {
          return false;
        }
      }
    } else if (obj.isObject()) {
      JsonNode oldObj = Schemas.mapCorrelatable(schema) && old != null && old.isObject()
          ? old : null;
      for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode oldValue = oldObj == null ? null : oldObj.get(e.getKey());
        CelValidator property = properties.get(e.getKey());
        if (property != null) {
          String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
          if (!property.validate(child, e.getValue(), oldValue, budget, errors)) {
            return false;
          }
        } else if (additionalProperties != null && !schema.has("properties")) {
          String child = path + "[" + e.getKey() + "]";
          if (!additionalProperties.validate(child, e.getValue(), oldValue, budget, errors)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private boolean evaluate(String path, JsonNode obj, JsonNode old, long[] budget,
      List<FieldError> errors) {
    String type = Schemas.type(schema);
    if (budget[0] <= 0) {
      errors.add(FieldError.invalid(path, type, BUDGET_EXCEEDED));
      return false;
    }
    Object self = CelValues.of(obj, schema, resourceRoot);
    Object oldSelf = old == null ? null : CelValues.of(old, schema, resourceRoot);
    for (CompilationResult compiled : rules) {
      ValidationRule rule = compiled.rule();
      if (compiled.usesOldSelf() && oldSelf == null && !compiled.optionalOldSelf()) {
        continue;
      }
      Map<String, Object> vars = new HashMap<>();
      vars.put("self", self);
      if (compiled.optionalOldSelf()) {
        vars.put("oldSelf", Optional.ofNullable(oldSelf));
      } else if (oldSelf != null) {
        vars.put("oldSelf", oldSelf);
      }
      RuntimeCost cost = new RuntimeCost(RuntimeCost.PER_CALL_LIMIT);
      Object result;
      try {
        result = compiled.program().trace(vars, cost);
      } catch (RuntimeCost.LimitExceeded e) {
        errors.add(FieldError.invalid(path, type, "'" + e.getMessage() + "': no further"
            + " validation rules will be run due to call cost exceeds limit for rule: "
            + rule.errorString()));
        return false;
      } catch (CelEvaluationException e) {
        if (e.getCause() instanceof RuntimeCost.LimitExceeded limit) {
          errors.add(FieldError.invalid(path, type, "'" + limit.getMessage() + "': no further"
              + " validation rules will be run due to call cost exceeds limit for rule: "
              + rule.errorString()));
          return false;
        }
        budget[0] -= cost.cost();
        errors.add(FieldError.invalid(path, type,
            EvaluationErrors.describe(e) + " evaluating rule: " + rule.errorString()));
        if (budget[0] < 0) {
          errors.add(FieldError.invalid(path, type, BUDGET_EXCEEDED));
          return false;
        }
        continue;
      }
      budget[0] -= cost.cost();
      if (budget[0] < 0) {
        errors.add(FieldError.invalid(path, type, BUDGET_EXCEEDED));
        return false;
      }
      if (Boolean.TRUE.equals(result)) {
        continue;
      }
      if (!(result instanceof Boolean)) {
        errors.add(FieldError.invalid(path, type, "rule did not evaluate to a bool"
            + " evaluating rule: " + rule.errorString()));
        continue;
      }
      String at = compiled.fieldPath().isEmpty() ? path
          : path.isEmpty() ? compiled.fieldPath() : path + "." + compiled.fieldPath();
      String detail = rule.messageOrDefault();
      if (compiled.messageProgram() != null) {
        RuntimeCost messageCost = new RuntimeCost(Math.min(RuntimeCost.PER_CALL_LIMIT,
            budget[0]));
        try {
          Object message = compiled.messageProgram().trace(vars, messageCost);
          budget[0] -= messageCost.cost();
          String text = message instanceof String s ? s.strip() : "";
          if (!text.isEmpty() && !RuleCompiler.hasNewlines(text) && text.length() <= 5000) {
            detail = text;
          }
        } catch (RuntimeCost.LimitExceeded e) {
          errors.add(FieldError.invalid(at, type, "messageExpression evaluation failed due to"
              + " running out of cost budget, no further validation rules will be run"));
          return false;
        } catch (CelEvaluationException e) {
          if (e.getCause() instanceof RuntimeCost.LimitExceeded) {
            errors.add(FieldError.invalid(at, type, "messageExpression evaluation failed due to"
                + " running out of cost budget, no further validation rules will be run"));
            return false;
          }
          budget[0] -= messageCost.cost();
        }
      }
      errors.add(forReason(at, type, detail, rule.reason()));
    }
    return true;
  }

  /** kube's {@code fieldErrorForReason}. */
  private static FieldError forReason(String path, String type, String detail, String reason) {
    if (reason == null) {
      return FieldError.invalid(path, type, detail);
    }
    return switch (reason) {
      case "FieldValueForbidden" -> FieldError.forbidden(path, detail);
      case "FieldValueRequired" -> FieldError.required(path, detail);
      case "FieldValueDuplicate" -> FieldError.duplicate(path, type);
      default -> FieldError.invalid(path, type, detail);
    };
  }

  private List<String> listMapKeys() {
    List<String> keys = new ArrayList<>();
    JsonNode k = schema.get("x-kubernetes-list-map-keys");
    if (k != null && k.isArray()) {
      k.forEach(n -> keys.add(n.asText()));
    }
    return keys;
  }

  /** The old list-map's items by their keys; empty when items do not correlate. */
  private Map<String, JsonNode> correlatableItems(JsonNode old) {
    if (old == null || !old.isArray() || !Schemas.listCorrelatable(schema)) {
      return Map.of();
    }
    List<String> keys = listMapKeys();
    Map<String, JsonNode> out = new HashMap<>();
    for (JsonNode item : old) {
      if (item.isObject()) {
        out.putIfAbsent(key(item, keys), item);
      }
    }
    return out;
  }

  private static String key(JsonNode item, List<String> keys) {
    StringBuilder b = new StringBuilder();
    for (String k : keys) {
      JsonNode v = item.get(k);
      b.append(v == null ? "<absent>" : v.toString()).append('\u0000');
    }
    return b.toString();
  }
}

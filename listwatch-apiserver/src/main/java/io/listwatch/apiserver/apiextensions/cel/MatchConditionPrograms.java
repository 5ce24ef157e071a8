package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The match conditions of one admission webhook ({@code webhooks[].matchConditions}), compiled
 * to be evaluated for each write, as kube's {@code matchconditions.Matcher} does: every condition
 * is evaluated with the variables {@code object}, {@code oldObject} and {@code request} (the
 * AdmissionRequest as JSON); a condition that is {@code false} skips the webhook at once; the
 * errors of the others (an expression that did not compile, or failed to evaluate) are for the
 * caller to weigh with the webhook's failure policy.
 *
 * <p>{@code namespaceObject} is declared and null, as kube has it for webhooks. Not available
 * here: the {@code authorizer} variables (an expression that uses them is a compilation error,
 * so it follows the failure policy).
 *
 * <p>Immutable and thread-safe: programs are evaluated concurrently.
 */
public final class MatchConditionPrograms {

  private static final Cel ENVIRONMENT = KubeCelLibrary.BASE.toCelBuilder()
      .addVar("object", SimpleType.DYN)
      .addVar("oldObject", SimpleType.DYN)
      .addVar("request", SimpleType.DYN)
      .addVar("namespaceObject", SimpleType.DYN)
      .build();

  /** One condition: its name, and its program or why it has none. */
  private record Condition(String name, String expression, CelRuntime.Program program, String compileError) {
  }

  /**
   * What the conditions say of one write.
   *
   * @param matches whether no condition was false and none failed
   * @param failedCondition the name of the first condition that was false, or null
   * @param errors kube's text of each condition that could not be evaluated
   *     ({@code compilation error: ...}, {@code expression '...' resulted in error: ...})
   */
  public record Result(boolean matches, String failedCondition, List<String> errors) {
  }

  private final List<Condition> conditions;

  private MatchConditionPrograms(List<Condition> conditions) {
    this.conditions = conditions;
  }

  /** Compiles {@code matchConditions} (each {@code {name, expression}}); one that does not compile errs when evaluated. */
  public static MatchConditionPrograms compile(JsonNode matchConditions) {
    List<Condition> compiled = new ArrayList<>();
    for (JsonNode c : matchConditions) {
      String name = c.path("name").asText("");
      String expression = c.path("expression").asText("");
      CelValidationResult result = ENVIRONMENT.compile(expression);
      if (result.hasError()) {
        compiled.add(new Condition(name, expression, null, result.getErrorString()));
        continue;
      }
      try {
        compiled.add(new Condition(name, expression, ENVIRONMENT.createProgram(result.getAst()), null));
      } catch (CelEvaluationException | dev.cel.common.CelValidationException e) {
        compiled.add(new Condition(name, expression, null, e.getMessage()));
      }
    }
    return new MatchConditionPrograms(List.copyOf(compiled));
  }

  /** Whether there is no condition at all. */
  public boolean isEmpty() {
    return conditions.isEmpty();
  }

  /** Evaluates the conditions, in order, for one write ({@code object} or {@code oldObject} may be null). */
  public Result evaluate(JsonNode object, JsonNode oldObject, JsonNode request) {
    Map<String, Object> vars = new HashMap<>();
    vars.put("object", CelValues.dyn(object));
    vars.put("oldObject", CelValues.dyn(oldObject));
    vars.put("request", CelValues.dyn(request));
    vars.put("namespaceObject", CelValues.dyn(null)); // kube gives webhooks' conditions none
    List<String> errors = new ArrayList<>();
    for (Condition c : conditions) {
      if (c.program() == null) {
        errors.add("compilation error: " + c.compileError());
        continue;
      }
      Object value;
      try {
        value = c.program().trace(vars, new RuntimeCost(RuntimeCost.PER_CALL_LIMIT));
      } catch (CelEvaluationException e) {
        errors.add("expression '" + c.expression() + "' resulted in error: " + EvaluationErrors.describe(e));
        continue;
      } catch (RuntimeCost.LimitExceeded e) {
        errors.add("expression '" + c.expression() + "' resulted in error: operation cancelled: actual cost limit exceeded");
        continue;
      }
      if (Boolean.FALSE.equals(value)) {
        return new Result(false, c.name(), List.of());
      }
      if (!(value instanceof Boolean)) {
        errors.add("expression '" + c.expression() + "' resulted in error: no such overload");
      }
    }
    return new Result(errors.isEmpty(), null, List.copyOf(errors));
  }
}

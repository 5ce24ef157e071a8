package io.listwatch.apiserver.admission;

import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.EvaluationError;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code variables} of one evaluation of a policy: kube's variable composition. Each
 * variable is evaluated when an expression first reads it (an expression that reads none costs
 * nothing), then kept for the rest of the evaluation; a variable may read the variables before
 * it. A variable that fails makes the expression reading it fail with kube's
 * {@code composited variable "<name>" fails to evaluate: <error>}.
 *
 * <p>Confined to the thread evaluating one policy for one request.
 */
final class PolicyVariables extends AbstractMap<String, Object> {

  private final Map<String, CompiledPolicy.Compiled> variables;
  private final Map<String, Object> activation;
  private final Map<String, Object> values = new HashMap<>();

  PolicyVariables(Map<String, CompiledPolicy.Compiled> variables, Map<String, Object> activation) {
    this.variables = variables;
    this.activation = activation;
  }

  @Override
  public boolean containsKey(Object key) {
    return variables.containsKey(key);
  }

  @Override
  public Object get(Object key) {
    CompiledPolicy.Compiled compiled = variables.get(key);
    if (compiled == null) {
      return null;
    }
    Object value = values.get(key);
    if (value != null) {
      return value;
    }
    try {
      value = compiled.expression() == null ? fail(compiled.error()) : compiled.expression().evaluate(activation);
    } catch (EvaluationError e) {
      throw new EvaluationError.Unchecked("composited variable \"" + key + "\" fails to evaluate: " + e.getMessage());
    }
    values.put((String) key, value);
    return value;
  }

  private static Object fail(String error) throws EvaluationError {
    throw new EvaluationError("compilation error: " + error);
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    Map<String, Object> all = new HashMap<>();
    for (String name : variables.keySet()) {
      all.put(name, get(name));
    }
    return all.entrySet();
  }
}

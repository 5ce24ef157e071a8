package io.listwatch.server.apiextensions.cel;

import dev.cel.runtime.CelEvaluationException;

/**
 * The text kube shows for a rule that failed to evaluate ({@code no such key: replicas},
 * {@code division by zero}, ...): CEL-Java's message without its {@code evaluation error at
 * <input>:N:} prefix. Stateless; thread-safe.
 */
final class EvaluationErrors {

  private EvaluationErrors() {
  }

  static String describe(CelEvaluationException e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    if (m.startsWith("evaluation error")) {
      int colon = m.indexOf(": ");
      if (colon >= 0) {
        m = m.substring(colon + 2);
      }
    }
    return m;
  }
}

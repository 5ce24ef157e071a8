package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.runtime.CelEvaluationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text kube shows for a rule that failed to evaluate ({@code no such key: replicas},
 * {@code division by zero}, ...): CEL-Java's message without its {@code evaluation error at
 * <input>:N:} prefix, and with cel-go's wording where the two differ (a missing map key is
 * {@code no such key: <key>}). Stateless; thread-safe.
 */
final class EvaluationErrors {

  private static final Pattern MISSING_KEY =
      Pattern.compile("key '(.*)' is not present in map\\.?");

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
    Matcher missing = MISSING_KEY.matcher(m);
    if (missing.matches()) {
      return "no such key: " + missing.group(1);
    }
    return m;
  }
}

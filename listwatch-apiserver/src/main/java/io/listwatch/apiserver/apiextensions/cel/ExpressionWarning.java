package io.listwatch.apiserver.apiextensions.cel;

import java.util.Objects;

/**
 * One entry of a ValidatingAdmissionPolicy's {@code status.typeChecking.expressionWarnings}
 * (kube's {@code ExpressionWarning}): the path of the expression in the policy and what the
 * type checker found in it, for every kind it was checked against. Immutable.
 *
 * @param fieldRef the expression's path, e.g. {@code spec.validations[0].expression}
 * @param warning the type checker's issues, one paragraph per kind ({@link TypeChecker})
 */
public record ExpressionWarning(String fieldRef, String warning) {

  public ExpressionWarning {
    Objects.requireNonNull(fieldRef, "fieldRef");
    Objects.requireNonNull(warning, "warning");
  }
}

package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;

/**
 * The cost of one evaluation of one expression, counted as CEL-Java evaluates it, and the
 * per-call limit enforced on it: kube's {@code PerCallLimit} (1,000,000). Every expression node
 * evaluated costs 1, so a macro such as {@code all} or {@code map} costs in proportion to the
 * elements it visits and a nested one in proportion to their product. When the count passes
 * the limit the evaluation is abandoned by {@link LimitExceeded}.
 *
 * <p>CEL-Java has no static cost estimator, so unlike kube no cost is estimated when the CRD is
 * written: an expensive rule is rejected when it runs, on the object that makes it expensive.
 *
 * <p>Confined to the thread evaluating one expression; one instance per evaluation.
 */
final class RuntimeCost implements CelEvaluationListener {

  /** kube's {@code PerCallLimit}: the most one evaluation of one expression may cost. */
  static final long PER_CALL_LIMIT = 1_000_000L;

  /** kube's {@code RuntimeCELCostBudget}: the most all rules may cost on one object write. */
  static final long RUNTIME_BUDGET = 10_000_000L;

  private final long limit;
  private long cost;

  RuntimeCost(long limit) {
    this.limit = limit;
  }

  @Override
  public void callback(CelExpr expr, Object result) {
    if (++cost > limit) {
      throw new LimitExceeded();
    }
  }

  /** The cost counted so far. */
  long cost() {
    return cost;
  }

  /** Thrown out of an evaluation whose cost passed the limit. */
  static final class LimitExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimitExceeded() {
      super("operation cancelled: actual cost limit exceeded", null, false, false);
    }
  }
}

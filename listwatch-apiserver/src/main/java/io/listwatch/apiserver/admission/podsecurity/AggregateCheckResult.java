package io.listwatch.apiserver.admission.podsecurity;

import java.util.ArrayList;
import java.util.List;

/**
 * The failures of every check of one evaluation, in the checks' order (kube's
 * {@code policy.AggregateCheckResult}).
 *
 * @param failures the results that did not allow the pod
 *
 * <p>Immutable.
 */
public record AggregateCheckResult(List<CheckResult> failures) {

  public AggregateCheckResult {
    failures = List.copyOf(failures);
  }

  /** The reason kube gives a failure that names none. */
  static final String UNKNOWN_FORBIDDEN_REASON = "unknown forbidden reason";

  /** The failures among {@code results}. */
  public static AggregateCheckResult of(List<CheckResult> results) {
    List<CheckResult> failures = new ArrayList<>();
    for (CheckResult r : results) {
      if (!r.allowed()) {
        failures.add(r.forbiddenReason().isEmpty()
            ? CheckResult.forbidden(UNKNOWN_FORBIDDEN_REASON, r.forbiddenDetail()) : r);
      }
    }
    return new AggregateCheckResult(List.copyOf(failures));
  }

  /** Whether every check allowed the pod. */
  public boolean allowed() {
    return failures.isEmpty();
  }

  /** The reasons, comma-separated: {@code host namespaces, privileged}. */
  public String forbiddenReason() {
    return String.join(", ", failures.stream().map(CheckResult::forbiddenReason).toList());
  }

  /**
   * The reasons with their details in parentheses, comma-separated:
   * {@code host namespaces (hostNetwork=true), privileged (container "c" must not set ...)}.
   */
  public String forbiddenDetail() {
    StringBuilder b = new StringBuilder();
    for (CheckResult f : failures) {
      if (!b.isEmpty()) {
        b.append(", ");
      }
      b.append(f.forbiddenReason());
      if (!f.forbiddenDetail().isEmpty()) {
        b.append(" (").append(f.forbiddenDetail()).append(')');
      }
    }
    return b.toString();
  }
}

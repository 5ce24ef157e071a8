package io.listwatch.apiserver.admission.podsecurity;

/**
 * What one check says of a pod (kube's {@code policy.CheckResult}).
 *
 * @param allowed whether the pod passes
 * @param forbiddenReason the short reason of a failure ({@code host namespaces}), shown always
 * @param forbiddenDetail the particulars ({@code hostNetwork=true}), shown in parentheses when
 *     one object is checked; may be empty
 *
 * <p>Immutable.
 */
public record CheckResult(boolean allowed, String forbiddenReason, String forbiddenDetail) {

  /** The pod passes. */
  public static final CheckResult ALLOWED = new CheckResult(true, "", "");

  /** The pod fails for {@code reason}, with {@code detail}. */
  static CheckResult forbidden(String reason, String detail) {
    return new CheckResult(false, reason, detail);
  }
}

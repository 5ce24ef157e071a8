package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.runtime.CelRuntime;

/**
 * One compiled {@code x-kubernetes-validations} rule: kube's {@code CompilationResult}.
 * Immutable; the programs are thread-safe and evaluated concurrently.
 *
 * @param rule the rule as written
 * @param program the compiled {@code rule}
 * @param messageProgram the compiled {@code messageExpression}, or null
 * @param messageProgramOk false when the {@code messageExpression} did not compile
 * @param usesOldSelf whether the rule refers to {@code oldSelf} (a transition rule)
 * @param fieldPath the rule's {@code fieldPath} as a field path relative to the rule's
 *     location ({@code spec.replicas}, {@code labels[app]}), or "" when unset
 */
record CompilationResult(ValidationRule rule, CelRuntime.Program program,
    CelRuntime.Program messageProgram, boolean messageProgramOk, boolean usesOldSelf,
    String fieldPath) {

  /** Whether the rule runs without an old value (a transition rule with optionalOldSelf). */
  boolean optionalOldSelf() {
    return usesOldSelf && Boolean.TRUE.equals(rule.optionalOldSelf());
  }
}

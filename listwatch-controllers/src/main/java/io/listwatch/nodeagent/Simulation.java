package io.listwatch.nodeagent;

import java.util.Locale;
import java.util.Optional;

/**
 * What the annotation {@value #ANNOTATION} asks of a running pod's containers, and what the
 * pod's {@code restartPolicy} makes of it (kube's rules for a container that exits):
 *
 * <table>
 *   <caption>Outcomes</caption>
 *   <tr><th>value</th><th>the containers</th><th>Always</th><th>OnFailure</th><th>Never</th></tr>
 *   <tr><td>{@code complete}</td><td>exit 0</td><td>restarted</td><td>Succeeded</td><td>Succeeded</td></tr>
 *   <tr><td>{@code fail}</td><td>exit 1</td><td>restarted</td><td>restarted</td><td>Failed</td></tr>
 *   <tr><td>{@code restart}</td><td>killed (exit 137)</td><td>restarted</td><td>restarted</td><td>Failed</td></tr>
 * </table>
 * "restarted": {@code restartCount} + 1, the exit in {@code lastState.terminated}, running again.
 * Each value is acted on once per pod: setting the same value again does nothing; removing
 * the annotation and setting it again (or another value) acts again.
 */
enum Simulation {
  COMPLETE(0), FAIL(1), RESTART(137);

  /** The annotation a user sets on a pod. */
  static final String ANNOTATION = "listwatch.io/simulate";

  final int exitCode;

  Simulation(int exitCode) {
    this.exitCode = exitCode;
  }

  /** The value of {@code annotation}, empty when absent or not one of the values. */
  static Optional<Simulation> parse(String annotation) {
    if (annotation == null) {
      return Optional.empty();
    }
    return switch (annotation.trim().toLowerCase(Locale.ROOT)) {
      case "complete" -> Optional.of(COMPLETE);
      case "fail" -> Optional.of(FAIL);
      case "restart" -> Optional.of(RESTART);
      default -> Optional.empty();
    };
  }

  /** Whether the containers start again under {@code restartPolicy} (default Always). */
  boolean restarts(String restartPolicy) {
    return switch (restartPolicy == null || restartPolicy.isEmpty() ? "Always" : restartPolicy) {
      case "Never" -> false;
      case "OnFailure" -> exitCode != 0;
      default -> true;
    };
  }
}

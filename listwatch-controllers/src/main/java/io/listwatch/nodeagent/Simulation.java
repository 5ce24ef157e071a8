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
 *   <tr><td>{@code complete}</td><td>exit 0</td><td>crash loop</td><td>Succeeded</td><td>Succeeded</td></tr>
 *   <tr><td>{@code fail}</td><td>exit 1</td><td>crash loop</td><td>crash loop</td><td>Failed</td></tr>
 *   <tr><td>{@code restart}</td><td>killed (exit 137)</td><td>crash loop</td><td>crash loop</td><td>Failed</td></tr>
 * </table>
 * While the annotation is set, the containers exit each time they start, so "restarted" is a
 * crash loop: {@code restartCount} + 1 at each restart, the exit in
 * {@code lastState.terminated}, and the containers waiting in CrashLoopBackOff between
 * restarts ({@link PodWorkers}, {@link Backoff}). Once the annotation is removed, the next
 * restart keeps running.
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

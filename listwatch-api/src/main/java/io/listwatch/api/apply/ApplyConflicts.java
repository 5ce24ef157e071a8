package io.listwatch.api.apply;

import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube's answer to an apply that would change fields other managers own: 409 Conflict with
 * one cause per conflicting field ({@code FieldManagerConflict}, message
 * {@code conflict with "other"}, field the path), and the message
 * <pre>
 * Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas
 * </pre>
 * or, for several, the conflicts grouped by manager (managers sorted by their description):
 * <pre>
 * Apply failed with 2 conflicts: conflicts with "a":
 * - .spec.replicas
 * conflicts with "b" using v1:
 * - .data.x
 * </pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class ApplyConflicts {

  /** The cause type kube gives each conflicting field. */
  public static final String CAUSE_TYPE = "FieldManagerConflict";

  private ApplyConflicts() {
  }

  /** One field another manager owns. */
  public record Conflict(ManagedFieldsEntry owner, FieldPath path) {
  }

  /** The 409 for {@code conflicts} (non-empty, in kube's order: by manager, then path). */
  public static StatusException toException(List<Conflict> conflicts) {
    if (conflicts.isEmpty()) {
      throw new IllegalArgumentException("no conflicts");
    }
    List<Status.Cause> causes = new ArrayList<>();
    for (Conflict c : conflicts) {
      causes.add(new Status.Cause(CAUSE_TYPE, "conflict with " + c.owner().describe(), c.path().toString()));
    }
    Status status = Status.failure(409, "Conflict", message(conflicts),
        new Status.Details(null, null, null, null, causes, null));
    return new StatusException(status);
  }

  /** kube's message for {@code conflicts}. */
  public static String message(List<Conflict> conflicts) {
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      return "Apply failed with 1 conflict: conflict with " + c.owner().describe() + ": " + c.path();
    }
    Map<String, List<FieldPath>> byManager = new TreeMap<>();
    for (Conflict c : conflicts) {
      byManager.computeIfAbsent(c.owner().describe(), k -> new ArrayList<>()).add(c.path());
    }
    List<String> lines = new ArrayList<>();
    byManager.forEach((m, paths) -> {
      lines.add("conflicts with " + m + ":");
      paths.forEach(p -> lines.add("- " + p));
    });
    return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
  }
}

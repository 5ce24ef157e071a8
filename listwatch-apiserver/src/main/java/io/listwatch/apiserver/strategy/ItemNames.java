package io.listwatch.apiserver.strategy;

import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Set;

/**
 * kube's rule for the names of a list's items (a pod's containers, a Service's ports): each a
 * DNS-1123 label, none twice. Stateless.
 */
final class ItemNames {

  private ItemNames() {
  }

  /**
   * Adds the errors of the non-empty {@code name} at {@code path}: kube's DNS-1123 label
   * messages, then {@code Duplicate value} if {@code seen} already holds it (it is added).
   */
  static void check(String name, String path, Set<String> seen, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isDns1123Label(name)) {
      errors.add(FieldErrors.invalid(path, name, msg));
    }
    if (!seen.add(name)) {
      errors.add(FieldErrors.duplicate(path, name));
    }
  }
}

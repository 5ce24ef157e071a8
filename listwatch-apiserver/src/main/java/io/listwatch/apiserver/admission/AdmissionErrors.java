package io.listwatch.apiserver.admission;

import io.listwatch.api.StatusException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The refusals plug-ins answer with, as kube's {@code admission} package makes them. Stateless. */
final class AdmissionErrors {

  private AdmissionErrors() {
  }

  /**
   * kube's {@code admission.NewForbidden}: 403 Forbidden naming the object, or its
   * {@code generateName} while it has no name yet ({@code pods "web" is forbidden: <why>}).
   */
  static StatusException forbidden(AdmissionAttributes a, String why) {
    String name = a.name();
    if (name.isEmpty() && a.object() != null) {
      name = a.object().path("metadata").path("generateName").asText("");
    }
    return StatusException.forbidden(a.resource().group(), a.resource().plural(), name, why);
  }

  /** kube's aggregate error: one message as is, several (without repeats) as {@code [a, b]}. */
  static String aggregate(List<String> errors) {
    Set<String> distinct = new LinkedHashSet<>(errors);
    return distinct.size() == 1 ? distinct.iterator().next() : "[" + String.join(", ", distinct) + "]";
  }
}

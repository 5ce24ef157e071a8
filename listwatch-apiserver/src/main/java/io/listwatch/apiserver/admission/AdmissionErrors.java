package io.listwatch.apiserver.admission;

import io.listwatch.api.StatusException;

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
}

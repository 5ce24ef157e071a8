package io.listwatch.apiserver.strategy;

import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Locale;

/**
 * kube's {@code ValidateCSIDriverName}: a CSI driver's name (a CSIDriver's own, a CSINode
 * driver's, a VolumeAttachment's attacher) is required, at most 63 bytes, and, lower-cased, a
 * DNS-1123 subdomain. Stateless.
 */
final class CSIDriverNames {

  private static final int MAX_LENGTH = 63;

  private CSIDriverNames() {
  }

  /** Adds kube's errors for the driver name {@code name} at {@code path}. */
  static void check(String name, String path, List<Status.Cause> errors) {
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
    }
    if (NameSyntax.byteLength(name) > MAX_LENGTH) {
      errors.add(FieldErrors.tooLong(path, MAX_LENGTH));
    }
    for (String msg : NameSyntax.isDns1123Subdomain(name.toLowerCase(Locale.ROOT))) {
      errors.add(FieldErrors.invalid(path, name, msg));
    }
  }
}

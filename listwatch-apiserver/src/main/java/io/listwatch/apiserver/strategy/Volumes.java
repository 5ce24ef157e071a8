package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.List;

/**
 * The rules PersistentVolumes and PersistentVolumeClaims share in kube's validation: access
 * modes, volume mode, storage class name, a positive quantity, and {@code volumeMode}'s
 * immutability. Stateless.
 */
final class Volumes {

  /** kube's {@code supportedAccessModes}, sorted as kube lists them. */
  static final List<String> ACCESS_MODES = List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
  /** kube's {@code supportedVolumeModes}, sorted. */
  static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");

  private Volumes() {
  }

  /**
   * kube's access mode rules: at least one ({@code Required value} with {@code requiredDetail}),
   * each supported, ReadWriteOncePod alone.
   */
  static void accessModes(JsonNode modes, String path, String requiredDetail, List<Status.Cause> errors) {
    if (modes.isEmpty()) {
      errors.add(FieldErrors.required(path, requiredDetail));
    }
    boolean rwop = false;
    boolean other = false;
    for (JsonNode m : modes) {
      String mode = m.asText("");
      if (!ACCESS_MODES.contains(mode)) {
        errors.add(FieldErrors.notSupported(path, mode, ACCESS_MODES));
      } else if (mode.equals("ReadWriteOncePod")) {
        rwop = true;
      } else {
        other = true;
      }
    }
    if (rwop && other) {
      errors.add(FieldErrors.forbidden(path, "may not use ReadWriteOncePod with other access modes"));
    }
  }

  /** kube's {@code ValidateClassName} of a non-empty class name: a DNS-1123 subdomain. */
  static void className(String name, String path, List<Status.Cause> errors) {
    if (!name.isEmpty()) {
      for (String msg : NameSyntax.isDns1123Subdomain(name)) {
        errors.add(FieldErrors.invalid(path, name, msg));
      }
    }
  }

  /** {@code spec.volumeMode}, when set, Block or Filesystem. */
  static void volumeMode(JsonNode spec, List<Status.Cause> errors) {
    JsonNode mode = spec.path("volumeMode");
    if (mode.isTextual() && !VOLUME_MODES.contains(mode.asText())) {
      errors.add(FieldErrors.notSupported("spec.volumeMode", mode.asText(), VOLUME_MODES));
    }
  }

  /** kube's {@code ValidateImmutableField} of {@code volumeMode}, at kube's path {@code volumeMode}. */
  static void immutableVolumeMode(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    JsonNode now = orNull(spec.get("volumeMode"));
    if (!java.util.Objects.equals(now, orNull(oldSpec.get("volumeMode")))) {
      errors.add(FieldErrors.invalid("volumeMode", now == null ? null : now.asText(), "field is immutable"));
    }
  }

  /** kube's {@code ValidatePositiveQuantityValue}: {@code must be greater than zero}. True if it passed. */
  static boolean positive(JsonNode q, String path, List<Status.Cause> errors) {
    BigDecimal amount = Quantities.amount(q);
    if (amount != null && amount.signum() <= 0) {
      errors.add(FieldErrors.invalid(path, q.asText(), "must be greater than zero"));
      return false;
    }
    return true;
  }

  /** kube's {@code validateBasicResource}: {@code must be a valid resource quantity} below zero. True if it passed. */
  static boolean basicResource(JsonNode q, String path, List<Status.Cause> errors) {
    BigDecimal amount = Quantities.amount(q);
    if (amount != null && amount.signum() < 0) {
      errors.add(FieldErrors.invalid(path, amount.setScale(0, java.math.RoundingMode.CEILING).longValue(),
          "must be a valid resource quantity"));
      return false;
    }
    return true;
  }

  /**
   * kube 1.32's {@code DropDisabledFields} for the VolumeAttributesClass feature (beta, off by
   * default): {@code spec.volumeAttributesClassName} is dropped unless the stored object
   * ({@code old}, null on create) already has one.
   */
  static void dropVolumeAttributesClass(ObjectNode obj, ObjectNode old) {
    if (obj.get("spec") instanceof ObjectNode spec
        && (old == null || !old.path("spec").hasNonNull("volumeAttributesClassName"))) {
      spec.remove("volumeAttributesClassName");
    }
  }

  /** {@code n}, or null when it is missing or JSON null. */
  static JsonNode orNull(JsonNode n) {
    return n == null || n.isNull() ? null : n;
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * PersistentVolumeClaims (core/v1), kube's defaults ({@code volumeMode: Filesystem}) and
 * {@code ValidatePersistentVolumeClaim} / {@code ...Update}:
 * <ul>
 *   <li>create and update: {@code spec.accessModes} (at least one, kube's modes,
 *       ReadWriteOncePod alone); {@code spec.resources.requests.storage} required and greater
 *       than zero (kube's path {@code spec.resources[storage]}); storage class and volume
 *       attributes class DNS subdomains; volume mode Block or Filesystem; {@code dataSource}
 *       and {@code dataSourceRef} with name and kind (kind PersistentVolumeClaim without an
 *       apiGroup), the two the same unless the ref has a namespace; {@code spec.selector} a valid
 *       label selector.</li>
 *   <li>update: the spec is immutable except {@code volumeName} while unset, a storage class
 *       set where none was (or from the beta annotation), and, for a bound claim, the storage
 *       request and {@code volumeAttributesClassName}; the storage request may shrink (kube
 *       1.32's RecoverVolumeExpansionFailure, beta and on) but not to or below
 *       {@code status.capacity}; {@code volumeMode} immutable.</li>
 * </ul>
 * {@code spec.volumeAttributesClassName} is dropped, as kube 1.32 drops it with its
 * VolumeAttributesClass feature off, unless the stored claim has one.
 * A {@code /status} write is validated as kube's status strategy does (see
 * {@link #prepareForStatusUpdate}). kube's message for a changed spec ends with a diff of the two specs; here it ends after the
 * sentence. Stateless.
 */
final class PersistentVolumeClaimStrategy implements RestStrategy {

  private static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
  /** kube's {@code resizeStatusSet}, sorted as kube lists it. */
  private static final List<String> RESIZE_STATUSES = List.of("ControllerResizeInProgress", "ControllerResizeInfeasible",
      "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending");

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(Fields.object(obj, "spec", true), "volumeMode", "Filesystem");
  }

  @Override
  public void prepareForCreate(ObjectNode obj, java.time.Instant now) {
    Volumes.dropVolumeAttributesClass(obj, null);
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    Volumes.dropVolumeAttributesClass(obj, old);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    int selectorAt = errors.size() + (spec.path("accessModes").isEmpty() ? 1 : 0);
    Volumes.accessModes(spec.path("accessModes"), "spec.accessModes", "at least 1 access mode is required", errors);
    errors.addAll(selectorAt, selectorErrors(spec.path("selector"), old));
    JsonNode storage = spec.path("resources").path("requests").path("storage");
    if (storage.isMissingNode()) {
      errors.add(FieldErrors.required("spec.resources[storage]", ""));
    } else if (Volumes.positive(storage, "spec.resources[storage]", errors)) {
      Quantities.value("storage", storage, "spec.resources[storage]", errors);
    }
    Volumes.className(spec.path("storageClassName").asText(""), "spec.storageClassName", errors);
    Volumes.volumeMode(spec, errors);
    if (spec.hasNonNull("dataSource")) {
      dataSource(spec.path("dataSource"), "spec.dataSource", errors);
    }
    JsonNode ref = spec.path("dataSourceRef");
    if (spec.hasNonNull("dataSourceRef")) {
      dataSource(ref, "spec.dataSourceRef", errors);
      String ns = ref.path("namespace").asText("");
      if (!ns.isEmpty()) {
        for (String msg : NameSyntax.isDns1123Label(ns)) {
          errors.add(FieldErrors.invalid("spec.dataSourceRef.namespace", ns, msg));
        }
      }
    }
    if (!ref.path("namespace").asText("").isEmpty()) {
      if (spec.hasNonNull("dataSource")) {
        errors.add(FieldErrors.invalid("spec", "spec.dataSource", "may not be specified when dataSourceRef.namespace is specified"));
      }
    } else if (spec.hasNonNull("dataSource") && spec.hasNonNull("dataSourceRef") && !sameSource(spec.path("dataSource"), ref)) {
      errors.add(FieldErrors.invalid("spec", "spec.dataSource", "must match dataSourceRef"));
    }
    Volumes.className(spec.path("volumeAttributesClassName").asText(""), "spec.volumeAttributesClassName", errors);
    if (old != null) {
      validateUpdate(obj, old, errors);
    }
  }

  /**
   * kube's {@code ValidateLabelSelector} of {@code spec.selector}, reported where kube reports it
   * (after a missing access mode, before unsupported ones); label values are not checked on an
   * update of a claim whose stored selector already fails (kube's
   * {@code AllowInvalidLabelValueInSelector}).
   */
  private static List<Status.Cause> selectorErrors(JsonNode selector, ObjectNode old) {
    boolean allowInvalidValues = old != null
        && !LabelSelectorValidation.validate(old.path("spec").path("selector"), "", new ArrayList<>());
    List<Status.Cause> errors = new ArrayList<>();
    LabelSelectorValidation.validate(selector, "spec.selector", allowInvalidValues, errors);
    return errors;
  }

  private static void validateUpdate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    ObjectNode spec = obj.path("spec") instanceof ObjectNode s ? s.deepCopy() : obj.objectNode();
    ObjectNode oldSpec = old.path("spec") instanceof ObjectNode s ? s.deepCopy() : obj.objectNode();
    if (oldSpec.path("volumeName").asText("").isEmpty()) {
      copy(spec, oldSpec, "volumeName");
    }
    String oldAnnotation = old.path("metadata").path("annotations").path(BETA_CLASS).asText(null);
    String newAnnotation = obj.path("metadata").path("annotations").path(BETA_CLASS).asText(null);
    JsonNode oldClass = Volumes.orNull(oldSpec.get("storageClassName"));
    JsonNode newClass = Volumes.orNull(spec.get("storageClassName"));
    boolean fromAnnotation = oldAnnotation != null && oldClass == null && newClass != null
        && newClass.asText().equals(oldAnnotation) && (newAnnotation == null || newAnnotation.equals(oldAnnotation));
    if (fromAnnotation) {
      spec.remove("storageClassName");
      oldSpec.remove("storageClassName");
    } else {
      if (!Objects.equals(oldAnnotation == null ? "" : oldAnnotation, newAnnotation == null ? "" : newAnnotation)) {
        errors.add(FieldErrors.invalid("metadata.annotations." + BETA_CLASS, newAnnotation == null ? "" : newAnnotation,
            "field is immutable"));
      }
      if (newClass != null && oldClass == null && (oldAnnotation == null || newClass.asText().equals(oldAnnotation))) {
        copy(spec, oldSpec, "storageClassName");
      }
    }
    boolean bound = obj.path("status").path("phase").asText("").equals("Bound");
    if (bound) {
      ObjectNode requests = Fields.object(Fields.object(spec, "resources", false), "requests", false);
      if (requests != null) {
        JsonNode was = oldSpec.path("resources").path("requests").get("storage");
        if (was == null) {
          requests.remove("storage");
        } else {
          requests.set("storage", was);
        }
      }
      if (spec.hasNonNull("volumeAttributesClassName")) {
        copy(oldSpec, spec, "volumeAttributesClassName");
      }
    }
    if (!semanticallyEqual(spec, oldSpec)) {
      errors.add(FieldErrors.forbidden("spec",
          "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"));
    }
    BigDecimal newSize = amount(obj.path("spec"));
    BigDecimal oldSize = amount(old.path("spec"));
    if (newSize.compareTo(oldSize) < 0) {
      BigDecimal statusSize = Quantities.amount(old.path("status").path("capacity").path("storage"));
      if (newSize.compareTo(statusSize == null ? BigDecimal.ZERO : statusSize) <= 0) {
        errors.add(FieldErrors.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
      }
    }
    Volumes.immutableVolumeMode(obj.path("spec"), old.path("spec"), errors);
    JsonNode oldVac = Volumes.orNull(old.path("spec").get("volumeAttributesClassName"));
    if (oldVac != null) {
      JsonNode newVac = Volumes.orNull(obj.path("spec").get("volumeAttributesClassName"));
      if (newVac == null) {
        errors.add(FieldErrors.forbidden("spec.volumeAttributesClassName", "update from non-nil value to nil is forbidden"));
      } else if (newVac.asText().isEmpty()) {
        errors.add(FieldErrors.forbidden("spec.volumeAttributesClassName", "update from non-nil value to an empty string is forbidden"));
      }
    }
  }

  /**
   * kube's {@code ValidatePersistentVolumeClaimStatusUpdate} (with 1.32's
   * RecoverVolumeExpansionFailure on), refused with a 422: {@code Spec.accessModes} (kube's
   * path) not empty; {@code status.capacity} quantities not negative; the keys of
   * {@code status.allocatedResources} and {@code status.allocatedResourceStatuses} storage or
   * qualified names with a domain, the statuses kube's resize states.
   */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new ArrayList<>();
    if (obj.path("spec").path("accessModes").isEmpty()) {
      errors.add(FieldErrors.required("Spec.accessModes", ""));
    }
    JsonNode status = obj.path("status");
    for (Map.Entry<String, JsonNode> e : status.path("capacity").properties()) {
      Volumes.basicResource(e.getValue(), "status.capacity[" + e.getKey() + "]", errors);
    }
    for (Map.Entry<String, JsonNode> e : status.path("allocatedResourceStatuses").properties()) {
      resourceKey(e.getKey(), "status.allocatedResourceStatus", errors);
      if (!RESIZE_STATUSES.contains(e.getValue().asText(""))) {
        errors.add(FieldErrors.notSupported("status.allocatedResourceStatus", e.getKey(), RESIZE_STATUSES));
      }
    }
    for (Map.Entry<String, JsonNode> e : status.path("allocatedResources").properties()) {
      if (resourceKey(e.getKey(), "status.allocatedResources", errors)) {
        String at = "status.allocatedResources[" + e.getKey() + "]";
        if (Volumes.basicResource(e.getValue(), at, errors)) {
          Quantities.value("storage", e.getValue(), at, errors);
        }
      }
    }
    StatusValidation.refuse("", "PersistentVolumeClaim", obj, errors);
  }

  /** kube's {@code validatePersistentVolumeClaimResourceKey}. True if it passed. */
  private static boolean resourceKey(String key, String path, List<Status.Cause> errors) {
    List<String> msgs = NameSyntax.isQualifiedName(key);
    for (String msg : msgs) {
      errors.add(FieldErrors.invalid(path, key, msg));
    }
    if (msgs.isEmpty() && Quantities.isNative(key) && !key.equals("storage")) {
      errors.add(FieldErrors.notSupported(path, key, List.of("storage")));
      return false;
    }
    return msgs.isEmpty();
  }

  /** kube's {@code validateDataSource}: name and kind required; kind PersistentVolumeClaim without an apiGroup. */
  private static void dataSource(JsonNode source, String path, List<Status.Cause> errors) {
    String kind = source.path("kind").asText("");
    if (source.path("name").asText("").isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", ""));
    }
    if (kind.isEmpty()) {
      errors.add(FieldErrors.required(path + ".kind", ""));
    }
    String group = source.path("apiGroup").asText("");
    if (group.isEmpty() && !kind.equals("PersistentVolumeClaim")) {
      errors.add(FieldErrors.invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
    }
    if (!group.isEmpty()) {
      for (String msg : NameSyntax.isDns1123Subdomain(group)) {
        errors.add(FieldErrors.invalid(path + ".apiGroup", group, msg));
      }
    }
  }

  private static boolean sameSource(JsonNode a, JsonNode b) {
    return Objects.equals(Volumes.orNull(a.get("apiGroup")), Volumes.orNull(b.get("apiGroup")))
        && a.path("kind").asText("").equals(b.path("kind").asText(""))
        && a.path("name").asText("").equals(b.path("name").asText(""));
  }

  /** Specs compared as kube's semantic equality does: quantities by amount, absent and empty alike. */
  private static boolean semanticallyEqual(JsonNode a, JsonNode b) {
    if (a == null || a.isNull() || (a.isContainerNode() && a.isEmpty())) {
      return b == null || b.isNull() || (b.isContainerNode() && b.isEmpty());
    }
    if (b == null) {
      return false;
    }
    if (a.isObject() && b.isObject()) {
      java.util.Set<String> keys = new java.util.HashSet<>();
      a.fieldNames().forEachRemaining(keys::add);
      b.fieldNames().forEachRemaining(keys::add);
      for (String k : keys) {
        if (!semanticallyEqual(a.get(k), b.get(k))) {
          return false;
        }
      }
      return true;
    }
    if (a.equals(b)) {
      return true;
    }
    BigDecimal x = Quantities.amount(a);
    BigDecimal y = Quantities.amount(b);
    return x != null && y != null && x.compareTo(y) == 0;
  }

  private static BigDecimal amount(JsonNode spec) {
    BigDecimal a = Quantities.amount(spec.path("resources").path("requests").path("storage"));
    return a == null ? BigDecimal.ZERO : a;
  }

  private static void copy(ObjectNode to, ObjectNode from, String field) {
    JsonNode v = from.get(field);
    if (v == null) {
      to.remove(field);
    } else {
      to.set(field, v.deepCopy());
    }
  }
}

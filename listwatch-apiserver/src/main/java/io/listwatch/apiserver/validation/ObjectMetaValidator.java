package io.listwatch.apiserver.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.registry.NameValidation;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Validates an object's {@code metadata} as kube-apiserver does on create:
 * apimachinery's {@code ValidateObjectMetaAccessor} with the resource's name rule, followed, if
 * that passes, by the generic registry's path-segment check of the name.
 *
 * <p>Checked, in kube's order, each failure one {@link Status.Cause}:
 * <ol>
 *   <li>{@code metadata.generateName}: the name rule in prefix form (a trailing {@code '-'} is
 *       fine).</li>
 *   <li>{@code metadata.name}: present ({@code Required value: name or generateName is
 *       required}) and valid under {@link ResourceDefinition#nameValidation()}. The caller
 *       fills in a generated name first (see {@link io.listwatch.api.meta.NameGenerator}), as kube does.</li>
 *   <li>{@code metadata.namespace}: for namespaced resources present and a DNS-1123 label; for
 *       cluster-scoped ones absent ({@code Forbidden: not allowed on this type}). kube clears
 *       the namespace of a cluster-scoped object before validating; callers should too.</li>
 *   <li>{@code metadata.generation}: not negative.</li>
 *   <li>{@code metadata.labels}: keys are qualified names, values valid label values.</li>
 *   <li>{@code metadata.annotations}: keys are qualified names (compared in lowercase, as kube
 *       does); keys plus values total at most 256 KiB.</li>
 *   <li>{@code metadata.finalizers}: qualified names; not both {@code orphan} and
 *       {@code foregroundDeletion}.</li>
 * </ol>
 * Not checked: ownerReferences and managedFields (their owners validate them), and update
 * rules (immutable fields).
 *
 * <p>kube decodes into typed structs, so a wrongly typed field (a number for a name or a label
 * value, an array for labels) never reaches its validation; it is a 400 decode error there.
 * Here it is a {@code FieldValueTypeInvalid} cause, e.g. {@code metadata.labels[app]: Invalid
 * value: "integer": must be of type string}. A JSON {@code null} field counts as absent, except
 * as a label or annotation value, which must be a string.
 *
 * <p>Stateless and thread-safe.
 */
public final class ObjectMetaValidator {

  /** kube's {@code TotalAnnotationSizeLimitB}: 256 KiB of keys and values. */
  public static final int TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

  private static final ObjectMetaValidator INSTANCE = new ObjectMetaValidator();

  /** A validator; all instances behave the same. */
  public ObjectMetaValidator() {
  }

  /**
   * Throws kube's 422 Invalid if {@code object}'s metadata is invalid for {@code def}:
   * {@code Pod "Foo" is invalid: metadata.name: Invalid value: "Foo": ...}, with
   * {@code details.kind} the Kind and every cause listed.
   *
   * @throws StatusException 422 Invalid
   */
  public static void check(ResourceDefinition def, ObjectNode object) {
    List<Status.Cause> causes = INSTANCE.validate(def, object);
    if (!causes.isEmpty()) {
      JsonNode name = object.path("metadata").path("name");
      throw StatusException.invalid(def.group(), def.kind(), name.isTextual() ? name.textValue() : "",
          causes);
    }
  }

  /**
   * The metadata errors of {@code object} as a resource of type {@code def}; empty if valid.
   *
   * @param def the resource type, for its scope and name rule
   * @param object the whole object as received (after the server filled in generated names
   *     and the namespace from the URL); not modified
   * @return an unmodifiable list of causes, in kube's order
   */
  public List<Status.Cause> validate(ResourceDefinition def, ObjectNode object) {
    Objects.requireNonNull(def, "def");
    Objects.requireNonNull(object, "object");
    List<Status.Cause> causes = new ArrayList<>();
    JsonNode metaNode = object.get("metadata");
    if (metaNode != null && !metaNode.isNull() && !metaNode.isObject()) {
      causes.add(FieldErrors.typeInvalid("metadata", metaNode, "object"));
      return List.copyOf(causes);
    }
    JsonNode meta = metaNode == null || metaNode.isNull() ? null : metaNode;
    NameValidation rule = def.nameValidation();

    String generateName = stringField(meta, "generateName", causes);
    String name = stringField(meta, "name", causes);
    String namespace = stringField(meta, "namespace", causes);

    if (generateName != null && !generateName.isEmpty()) {
      for (String msg : NameRules.validateName(rule, generateName, true)) {
        causes.add(FieldErrors.invalid("metadata.generateName", generateName, msg));
      }
    }
    if (name != null) {
      if (name.isEmpty()) {
        causes.add(FieldErrors.required("metadata.name", "name or generateName is required"));
      } else {
        for (String msg : NameRules.validateName(rule, name, false)) {
          causes.add(FieldErrors.invalid("metadata.name", name, msg));
        }
      }
    }
    if (namespace != null) {
      if (def.namespaced()) {
        if (namespace.isEmpty()) {
          causes.add(FieldErrors.required("metadata.namespace", ""));
        } else {
          for (String msg : NameSyntax.isDns1123Label(namespace)) {
            causes.add(FieldErrors.invalid("metadata.namespace", namespace, msg));
          }
        }
      } else if (!namespace.isEmpty()) {
        causes.add(FieldErrors.forbidden("metadata.namespace", "not allowed on this type"));
      }
    }
    if (meta != null) {
      validateGeneration(meta.get("generation"), causes);
      validateLabels(meta.get("labels"), "metadata.labels", causes);
      validateAnnotations(meta.get("annotations"), "metadata.annotations", causes);
      validateFinalizers(meta.get("finalizers"), causes);
    }

    // kube's generic registry re-validates with the path-segment rule once the type's own
    // validation passed; DNS rules imply it, so this only matters for unusual rules.
    if (causes.isEmpty() && rule != NameValidation.PATH_SEGMENT) {
      if (generateName != null && !generateName.isEmpty()) {
        for (String msg : NameSyntax.isValidPathSegmentPrefix(generateName)) {
          causes.add(FieldErrors.invalid("metadata.generateName", generateName, msg));
        }
      }
      if (name != null && !name.isEmpty()) {
        for (String msg : NameSyntax.isValidPathSegmentName(name)) {
          causes.add(FieldErrors.invalid("metadata.name", name, msg));
        }
      }
    }
    return List.copyOf(causes);
  }

  /** The string at {@code meta.field}: "" if absent or null; null (and a cause) if not a string. */
  private static String stringField(JsonNode meta, String field, List<Status.Cause> causes) {
    JsonNode node = meta == null ? null : meta.get(field);
    if (node == null || node.isNull()) {
      return "";
    }
    if (!node.isTextual()) {
      causes.add(FieldErrors.typeInvalid("metadata." + field, node, "string"));
      return null;
    }
    return node.textValue();
  }

  private static void validateGeneration(JsonNode generation, List<Status.Cause> causes) {
    if (generation == null || generation.isNull()) {
      return;
    }
    if (!generation.isIntegralNumber()) {
      causes.add(FieldErrors.typeInvalid("metadata.generation", generation, "integer"));
      return;
    }
    if (generation.bigIntegerValue().signum() < 0) {
      causes.add(FieldErrors.invalid("metadata.generation", generation.bigIntegerValue(),
          "must be greater than or equal to 0"));
    }
  }

  /**
   * kube's {@code ValidateLabels} of the label map {@code labels} at {@code path} (metadata's
   * labels, a Service's selector): each key a qualified name, each value a label value.
   */
  public static void validateLabels(JsonNode labels, String path, List<Status.Cause> causes) {
    if (labels == null || labels.isNull()) {
      return;
    }
    if (!labels.isObject()) {
      causes.add(FieldErrors.typeInvalid(path, labels, "object"));
      return;
    }
    for (Map.Entry<String, JsonNode> label : labels.properties()) {
      String key = label.getKey();
      for (String msg : NameSyntax.isQualifiedName(key)) {
        causes.add(FieldErrors.invalid(path, key, msg));
      }
      JsonNode value = label.getValue();
      if (!value.isTextual()) {
        causes.add(FieldErrors.typeInvalid(path + "[" + key + "]", value, "string"));
        continue;
      }
      for (String msg : NameSyntax.isValidLabelValue(value.textValue())) {
        causes.add(FieldErrors.invalid(path, value.textValue(), msg));
      }
    }
  }

  /**
   * kube's {@code ValidateAnnotations} of the annotation map {@code annotations} at {@code path}:
   * each key a qualified name (in lower case), their keys and values 256 KiB at most in all.
   */
  public static void validateAnnotations(JsonNode annotations, String path, List<Status.Cause> causes) {
    if (annotations == null || annotations.isNull()) {
      return;
    }
    if (!annotations.isObject()) {
      causes.add(FieldErrors.typeInvalid(path, annotations, "object"));
      return;
    }
    long totalBytes = 0;
    for (Map.Entry<String, JsonNode> annotation : annotations.properties()) {
      String key = annotation.getKey();
      for (String msg : NameSyntax.isQualifiedName(key.toLowerCase(Locale.ROOT))) {
        causes.add(FieldErrors.invalid(path, key, msg));
      }
      totalBytes += NameSyntax.byteLength(key);
      JsonNode value = annotation.getValue();
      if (!value.isTextual()) {
        causes.add(FieldErrors.typeInvalid(path + "[" + key + "]", value, "string"));
        continue;
      }
      totalBytes += NameSyntax.byteLength(value.textValue());
    }
    if (totalBytes > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
      causes.add(FieldErrors.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
    }
  }

  private static void validateFinalizers(JsonNode finalizers, List<Status.Cause> causes) {
    if (finalizers == null || finalizers.isNull()) {
      return;
    }
    if (!finalizers.isArray()) {
      causes.add(FieldErrors.typeInvalid("metadata.finalizers", finalizers, "array"));
      return;
    }
    List<String> names = new ArrayList<>(finalizers.size());
    for (int i = 0; i < finalizers.size(); i++) {
      JsonNode finalizer = finalizers.get(i);
      if (!finalizer.isTextual()) {
        causes.add(FieldErrors.typeInvalid("metadata.finalizers[" + i + "]", finalizer, "string"));
        continue;
      }
      String value = finalizer.textValue();
      names.add(value);
      for (String msg : NameSyntax.isQualifiedName(value)) {
        causes.add(FieldErrors.invalid("metadata.finalizers", value, msg));
      }
    }
    if (names.contains("orphan") && names.contains("foregroundDeletion")) {
      causes.add(FieldErrors.invalid("metadata.finalizers", names,
          "finalizer orphan and foregroundDeletion cannot be both set"));
    }
  }
}

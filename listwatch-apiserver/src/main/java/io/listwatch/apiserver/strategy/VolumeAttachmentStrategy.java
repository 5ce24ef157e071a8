package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * VolumeAttachments (storage.k8s.io/v1, with {@code /status}), kube 1.32's strategy and
 * validation; kube has no defaults for them. Their status is dropped on create (and served as kube serves an
 * empty one, {@code {"attached": false}}) and kept on updates of the main resource (the
 * definition's {@code clearsStatusOnCreate} and {@code hasStatus}).
 *
 * <p>Validation ({@code ValidateVolumeAttachment}, on create, update and {@code /status}):
 * {@code spec.attacher} required; {@code spec.source} exactly one of
 * {@code persistentVolumeName} (not empty) and {@code inlineVolumeSpec}; {@code spec.nodeName}
 * a DNS-1123 subdomain; {@code status.attachmentMetadata} at most 256 KiB of keys and values,
 * the attach and detach errors' messages at most 1024 bytes (kube's error names 262144 as the
 * limit, and so does this). On create also {@code ValidateVolumeAttachmentV1}: the attacher a CSI
 * driver name ({@link CSIDriverNames}) and the volume name a DNS-1123 subdomain. On update the
 * spec is immutable ({@code spec: Invalid value: <the new spec>: field is immutable}). Not
 * checked: the inline volume spec ({@code ValidatePersistentVolumeSpec}). Stateless.
 */
final class VolumeAttachmentStrategy implements RestStrategy {

  private static final int MAX_METADATA_SIZE = 256 * 1024;
  private static final int MAX_ERROR_MESSAGE_SIZE = 1024;
  private static final String EXACTLY_ONE = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";

  /** kube's {@code PrepareForCreate}: an empty status, which kube serves as {@code {"attached": false}}. */
  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.putObject("status").put("attached", false);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    validateVolumeAttachment(obj, errors);
    JsonNode spec = obj.path("spec");
    if (old == null) {
      CSIDriverNames.check(spec.path("attacher").asText(""), "spec.attacher", errors);
      JsonNode pv = spec.path("source").path("persistentVolumeName");
      if (given(pv)) {
        for (String msg : NameSyntax.isDns1123Subdomain(pv.asText(""))) {
          errors.add(FieldErrors.invalid("spec.source.persistentVolumeName", pv.asText(""), msg));
        }
      }
    } else if (!spec.equals(old.path("spec"))) {
      errors.add(FieldErrors.invalid("spec", goSpec(spec), "field is immutable"));
    }
  }

  /** kube's status strategy: the same {@code ValidateVolumeAttachment}, refused in one 422. */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new ArrayList<>();
    validateVolumeAttachment(obj, errors);
    StatusValidation.refuse("storage.k8s.io", "VolumeAttachment", obj, errors);
  }

  /** kube's {@code ValidateVolumeAttachment} beyond the metadata: the spec and the status. */
  private static void validateVolumeAttachment(JsonNode obj, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    if (spec.path("attacher").asText("").isEmpty()) {
      errors.add(FieldErrors.required("spec.attacher", ""));
    }
    JsonNode source = spec.path("source");
    boolean pv = given(source.path("persistentVolumeName"));
    boolean inline = given(source.path("inlineVolumeSpec"));
    if (!pv && !inline) {
      errors.add(FieldErrors.required("spec.source", EXACTLY_ONE));
    } else if (pv && inline) {
      errors.add(FieldErrors.forbidden("spec.source", EXACTLY_ONE));
    } else if (pv && source.path("persistentVolumeName").asText("").isEmpty()) {
      errors.add(FieldErrors.required("spec.source.persistentVolumeName", "must specify non empty persistentVolumeName"));
    }
    String nodeName = spec.path("nodeName").asText("");
    for (String msg : NameSyntax.isDns1123Subdomain(nodeName)) {
      errors.add(FieldErrors.invalid("spec.nodeName", nodeName, msg));
    }
    JsonNode status = obj.path("status");
    long size = 0;
    for (Map.Entry<String, JsonNode> e : status.path("attachmentMetadata").properties()) {
      size += NameSyntax.byteLength(e.getKey()) + NameSyntax.byteLength(e.getValue().asText(""));
    }
    if (size > MAX_METADATA_SIZE) {
      errors.add(FieldErrors.tooLong("status.attachmentMetadata", MAX_METADATA_SIZE));
    }
    for (String error : List.of("attachError", "detachError")) {
      if (NameSyntax.byteLength(status.path(error).path("message").asText("")) > MAX_ERROR_MESSAGE_SIZE) {
        errors.add(FieldErrors.tooLong("status." + error + ".message", MAX_METADATA_SIZE));
      }
    }
  }

  /**
   * Go's {@code %#v} of a {@code storage.VolumeAttachmentSpec}. Its source's fields are
   * pointers, which Go prints as addresses; a set one is shown as the zero address.
   */
  private static GoLiteral goSpec(JsonNode spec) {
    JsonNode source = spec.path("source");
    GoLiteral goSource = GoLiteral.struct("storage.VolumeAttachmentSource",
        "PersistentVolumeName", GoLiteral.pointer("string", given(source.path("persistentVolumeName"))),
        "InlineVolumeSpec", GoLiteral.pointer("core.PersistentVolumeSpec", given(source.path("inlineVolumeSpec"))));
    return GoLiteral.struct("storage.VolumeAttachmentSpec",
        "Attacher", FieldErrors.goValue(spec.path("attacher").asText("")),
        "Source", goSource.toString(),
        "NodeName", FieldErrors.goValue(spec.path("nodeName").asText("")));
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's {@code ephemeralcontainers} subresource, kube 1.32's
 * {@code podEphemeralContainersStrategy}: the body is the whole Pod, of which only
 * {@code spec.ephemeralContainers} is taken (kube's {@code dropNonEphemeralContainerUpdates}):
 * the rest of the spec and the status stay as stored, and so do the labels, annotations,
 * finalizers, owner references, deletion timestamp and generation
 * ({@code ResetObjectMetaForStatus}). Validated as kube's
 * {@code ValidatePodEphemeralContainersUpdate}: the whole pod as a pod is (so each new ephemeral
 * container meets {@code validateEphemeralContainers}, see {@link ContainerValidation}); a
 * static pod's mirror (annotation {@code kubernetes.io/config.mirror}) takes none; an ephemeral
 * container once added may be neither removed nor changed. The defaults are the pod's
 * ({@link PodSpecDefaults} fills ephemeral containers too), which the store applies to every
 * write. kube has no warnings for this subresource.
 *
 * <p>Not as kube: the diff that follows {@code may not be changed} lists the changed fields of
 * the container as JSON in the frame of kube's {@code cmp.Diff}, as {@link PodUpdateValidation}
 * does; kube prints Go's diff of its internal type. Stateless.
 */
final class PodEphemeralContainersStrategy implements RestStrategy {

  /** The subresource's name, as in the path and in discovery. */
  static final String SUBRESOURCE = "ephemeralcontainers";
  private static final String MIRROR = "kubernetes.io/config.mirror";
  private static final String PATH = "spec.ephemeralContainers";
  /** What kube's {@code ResetObjectMetaForStatus} keeps of the stored metadata. */
  private static final List<String> STORED_METADATA = List.of("deletionTimestamp", "generation", "labels",
      "annotations", "finalizers", "ownerReferences");

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    JsonNode ephemeral = obj.path("spec").get("ephemeralContainers");
    ObjectNode spec = old.get("spec") instanceof ObjectNode s ? s.deepCopy() : obj.objectNode();
    if (ephemeral == null || ephemeral.isNull()) {
      spec.remove("ephemeralContainers");
    } else {
      spec.set("ephemeralContainers", ephemeral);
    }
    obj.set("spec", spec);
    if (old.has("status")) {
      obj.set("status", old.get("status").deepCopy());
    } else {
      obj.remove("status");
    }
    for (String field : STORED_METADATA) {
      Fields.keepStoredMetadata(obj, old, field);
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    PodAnnotationValidation.validate(obj, old, errors);
    PodSpecValidation.pod(obj.path("spec"), errors);
    if (old.path("metadata").path("annotations").has(MIRROR)) {
      errors.clear(); // kube answers this one alone
      errors.add(FieldErrors.forbidden("", "static pods do not support ephemeral containers"));
      return;
    }
    // patches do not keep the order: each stored container is looked up by name
    Map<String, JsonNode> updated = new HashMap<>();
    for (JsonNode c : obj.path("spec").path("ephemeralContainers")) {
      updated.put(PodSpecValidation.text(c, "name"), c);
    }
    for (JsonNode stored : old.path("spec").path("ephemeralContainers")) {
      String name = PodSpecValidation.text(stored, "name");
      JsonNode now = updated.get(name);
      if (now == null) {
        errors.add(FieldErrors.forbidden(PATH, "existing ephemeral containers " + FieldErrors.goValue(name)
            + " may not be removed\n"));
        continue;
      }
      JsonNode before = PodUpdateValidation.normalized(stored);
      JsonNode after = PodUpdateValidation.normalized(now);
      if (!java.util.Objects.equals(before, after)) {
        errors.add(FieldErrors.forbidden(PATH, "existing ephemeral containers " + FieldErrors.goValue(name)
            + " may not be changed\n" + PodUpdateValidation.diff("core.EphemeralContainer", before, after)));
      }
    }
  }
}

package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * PodTemplates (v1), kube's strategy, defaults and validation. Defaults: the template's pod
 * spec's ({@link PodSpecDefaults}). Validation ({@code ValidatePodTemplate},
 * {@code ValidatePodTemplateUpdate}): {@code template} as kube's {@code ValidatePodTemplateSpec}
 * ({@link WorkloadValidation#podTemplateSpec}), on create and update. Generation: 1 on create,
 * bumped when an update changes {@code template} (kube's PrepareForCreate/PrepareForUpdate).
 * Warnings: the template's, on create and when the template changed. Stateless.
 */
final class PodTemplateStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    // kube defaults the template's pod spec even when the client sent none (it is a struct)
    PodSpecDefaults.podSpec(Fields.object(Fields.object(obj, "template", true), "spec", true));
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    WorkloadValidation.podTemplateSpec(obj.path("template"), "template", errors);
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    Fields.object(obj, "metadata", true).put("generation", 1);
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    if (!Objects.equals(obj.get("template"), old.get("template"))) {
      Fields.object(obj, "metadata", true).put("generation", old.path("metadata").path("generation").asLong(0) + 1);
    }
  }

  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    WorkloadStrategy.templateWarnings(obj, old, "template", obj.path("template"), warn);
  }
}

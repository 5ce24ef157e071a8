package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * RuntimeClasses (node.k8s.io/v1), kube's validation ({@code ValidateRuntimeClass},
 * {@code ValidateRuntimeClassUpdate}): {@code handler} a DNS-1123 label, immutable;
 * {@code overhead.podFixed} checked as a container's limits (reported at
 * {@code overhead.limits[<name>]}, as kube's reuse of {@code ValidateResourceRequirements}
 * does); {@code scheduling.nodeSelector} as labels and {@code scheduling.tolerations} as a
 * pod's tolerations; the same on update, where the handler may not change. No defaults.
 * Stateless.
 */
final class RuntimeClassStrategy implements RestStrategy {

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String handler = obj.path("handler").asText("");
    for (String msg : NameSyntax.isDns1123Label(handler)) {
      errors.add(FieldErrors.invalid("handler", handler, msg));
    }
    JsonNode podFixed = obj.path("overhead").path("podFixed");
    if (podFixed.isObject()) {
      ObjectNode requirements = JsonNodeFactory.instance.objectNode();
      requirements.set("limits", podFixed);
      ResourceRequirementsValidation.container(requirements, "overhead", errors);
    }
    JsonNode scheduling = obj.path("scheduling");
    if (scheduling.isObject()) {
      if (scheduling.path("nodeSelector").isObject()) {
        LabelSelectorValidation.labels(scheduling.path("nodeSelector"), "scheduling.nodeSelector", errors);
      }
      TolerationValidation.tolerations(scheduling.path("tolerations"), "scheduling.tolerations", errors);
    }
    if (old != null && !handler.equals(old.path("handler").asText(""))) {
      errors.add(FieldErrors.invalid("handler", handler, "field is immutable"));
    }
  }
}

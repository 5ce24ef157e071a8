package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code ValidateFlowSchemaStatus} and {@code ValidatePriorityLevelConfigurationStatus}
 * (the same rules): each of {@code status.conditions} has a {@code type}
 * ({@code Required value: must not be empty}) and no two share one
 * ({@code conditions[i].type: Duplicate value}). Stateless.
 */
final class FlowcontrolStatusValidation {

  private FlowcontrolStatusValidation() {
  }

  /** Adds the errors of {@code obj}'s {@code status.conditions} to {@code errors}. */
  static void validate(ObjectNode obj, List<Status.Cause> errors) {
    Set<String> types = new HashSet<>();
    JsonNode conditions = obj.path("status").path("conditions");
    for (int i = 0; i < conditions.size(); i++) {
      String path = "status.conditions[" + i + "].type";
      String type = conditions.get(i).path("type").asText("");
      if (!types.add(type)) {
        errors.add(FieldErrors.duplicate(path, type));
      }
      if (type.isEmpty()) {
        errors.add(FieldErrors.required(path, "must not be empty"));
      }
    }
  }

  /** kube's status strategy: the status errors of a {@code /status} write, refused in one 422. */
  static void refuse(String kind, ObjectNode obj) {
    List<Status.Cause> errors = new java.util.ArrayList<>();
    validate(obj, errors);
    StatusValidation.refuse("flowcontrol.apiserver.k8s.io", kind, obj, errors);
  }
}

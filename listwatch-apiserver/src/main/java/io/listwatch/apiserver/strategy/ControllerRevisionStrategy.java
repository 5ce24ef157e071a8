package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * ControllerRevisions (apps/v1), kube's {@code ValidateControllerRevision} and
 * {@code ValidateControllerRevisionUpdate}: {@code data} is required and may not change,
 * {@code revision} is not negative. kube prints the changed data as a Go object; here it is
 * printed as its JSON. Stateless.
 */
final class ControllerRevisionStrategy implements RestStrategy {

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode data = obj.path("data");
    if (!NumericFields.given(data)) {
      errors.add(FieldErrors.required("data", "data is mandatory"));
    }
    NumericFields.nonNegative(obj.path("revision"), "revision", errors);
    if (old != null && !data.equals(old.path("data"))) {
      errors.add(FieldErrors.invalid("data", new GoLiteral(data.toString()), "field is immutable"));
    }
  }
}

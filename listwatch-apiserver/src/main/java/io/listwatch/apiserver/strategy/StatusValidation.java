package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.util.List;

/**
 * How a strategy answers kube's validation of a write the store does not validate through
 * {@link RestStrategy#validate} ({@code /status}, {@code /finalize}): the strategy collects the
 * field errors in its prepare hook and refuses them here in one 422 Invalid, as kube's status
 * strategy's {@code ValidateUpdate} would. Stateless.
 */
final class StatusValidation {

  private StatusValidation() {
  }

  /**
   * Throws kube's 422 Invalid ({@code <Kind> "<name>" is invalid: ...}) when {@code errors} is
   * not empty.
   *
   * @param group the kind's API group ({@code ""} for core)
   * @throws StatusException 422 Invalid
   */
  static void refuse(String group, String kind, ObjectNode obj, List<Status.Cause> errors) {
    if (!errors.isEmpty()) {
      throw StatusException.invalid(group, kind, obj.path("metadata").path("name").asText(""), errors);
    }
  }
}

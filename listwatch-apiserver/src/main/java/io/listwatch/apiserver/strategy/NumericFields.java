package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube's generic rules of a number field ({@code ValidateNonnegativeField},
 * {@code ValidatePositiveField} of core validation), for an integer given in JSON; a field
 * that is absent, or not an integer, is left alone. Stateless.
 */
final class NumericFields {

  private NumericFields() {
  }

  /** {@code <path>: Invalid value: <n>: must be greater than or equal to 0}. */
  static void nonNegative(JsonNode value, String path, List<Status.Cause> errors) {
    if (value.isIntegralNumber() && value.longValue() < 0) {
      errors.add(FieldErrors.invalid(path, value.longValue(), "must be greater than or equal to 0"));
    }
  }

  /** {@code <path>: Invalid value: <n>: must be greater than 0}. */
  static void positive(JsonNode value, String path, List<Status.Cause> errors) {
    if (value.isIntegralNumber() && value.longValue() <= 0) {
      errors.add(FieldErrors.invalid(path, value.longValue(), "must be greater than 0"));
    }
  }

  /** Whether {@code value} is given: not missing and not JSON null. */
  static boolean given(JsonNode value) {
    return value != null && !value.isMissingNode() && !value.isNull();
  }
}

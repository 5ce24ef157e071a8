package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's rules for an int-or-string that is a count or a percentage (a rolling update's
 * {@code maxUnavailable} and {@code maxSurge}, a PodDisruptionBudget's {@code minAvailable}):
 * {@code ValidatePositiveIntOrPercent}, {@code IsNotMoreThan100Percent} and
 * {@code getIntOrPercentValue} of kube's apps validation. A bad value is printed as kube's
 * {@code IntOrString.String()} prints it: bare, a string without quotes. Stateless.
 */
final class IntOrPercent {

  private static final Pattern PERCENT = Pattern.compile("[0-9]+%");
  private static final String PERCENT_MESSAGE = "a valid percent string must be a numeric string followed by an "
      + "ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

  private IntOrPercent() {
  }

  /** kube's {@code ValidatePositiveIntOrPercent}: a valid percentage, or an integer not below zero. */
  static void validatePositive(JsonNode value, String path, List<Status.Cause> errors) {
    if (value.isTextual()) {
      if (!PERCENT.matcher(value.textValue()).matches()) {
        errors.add(FieldErrors.invalid(path, shown(value), PERCENT_MESSAGE));
      }
    } else if (value.isIntegralNumber()) {
      NumericFields.nonNegative(value, path, errors);
    } else {
      errors.add(FieldErrors.invalid(path, shown(value), "must be an integer or percentage (e.g '5%%')"));
    }
  }

  /** kube's {@code IsNotMoreThan100Percent}: a valid percentage may not exceed 100%. */
  static void notMoreThan100Percent(JsonNode value, String path, List<Status.Cause> errors) {
    if (isPercent(value) && percent(value) > 100) {
      errors.add(FieldErrors.invalid(path, shown(value), "must not be greater than 100%"));
    }
  }

  /**
   * kube's {@code getIntOrPercentValue}: the number of a valid percentage, else the integer (a
   * string that is not a valid percentage counts as what Go's {@code Atoi} makes of it, 0 if
   * nothing).
   */
  static long value(JsonNode value) {
    if (isPercent(value)) {
      return percent(value);
    }
    if (value.isTextual()) {
      try {
        return Long.parseLong(value.textValue());
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return value.asLong(0);
  }

  /** The value as kube's {@code IntOrString.String()} prints it in a field error. */
  static Object shown(JsonNode value) {
    return new GoLiteral(value.isTextual() ? value.textValue() : value.toString());
  }

  private static boolean isPercent(JsonNode value) {
    return value.isTextual() && PERCENT.matcher(value.textValue()).matches();
  }

  private static long percent(JsonNode value) {
    String s = value.textValue();
    try {
      return Long.parseLong(s.substring(0, s.length() - 1));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE; // digits beyond a long: certainly more than 100
    }
  }
}

package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A rolling update's bounds from {@code maxSurge} and {@code maxUnavailable}, each an int or a
 * percentage of the desired replicas, resolved as kube does: the surge rounds up, the
 * unavailability rounds down, and when both come to zero one pod may be unavailable (so a
 * rollout can always move).
 *
 * @param maxSurge how many pods above the desired count may exist
 * @param maxUnavailable how many of the desired pods may be unavailable
 */
record Fenceposts(int maxSurge, int maxUnavailable) {

  /** kube's {@code ResolveFenceposts}. */
  static Fenceposts resolve(JsonNode maxSurge, JsonNode maxUnavailable, int desired) {
    int surge = scaled(maxSurge, desired, true);
    int unavailable = scaled(maxUnavailable, desired, false);
    if (surge == 0 && unavailable == 0) {
      unavailable = 1;
    }
    return new Fenceposts(surge, unavailable);
  }

  /**
   * kube's {@code GetScaledValueFromIntOrPercent}: an int as is, a percentage of {@code total}
   * rounded up or down. A missing value is 0.
   *
   * @throws IllegalArgumentException for a string that is not a percentage
   */
  static int scaled(JsonNode value, int total, boolean roundUp) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return 0;
    }
    if (value.isNumber()) {
      return value.intValue();
    }
    String s = value.asText();
    if (!s.endsWith("%")) {
      throw new IllegalArgumentException("invalid value for IntOrString: invalid type: string is not a percentage");
    }
    int percent;
    try {
      percent = Integer.parseInt(s.substring(0, s.length() - 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid value \"" + s + "\": " + e.getMessage());
    }
    long product = (long) percent * total;
    return (int) (roundUp ? Math.ceilDiv(product, 100) : Math.floorDiv(product, 100));
  }
}

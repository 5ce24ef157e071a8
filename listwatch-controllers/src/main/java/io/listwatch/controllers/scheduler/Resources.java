package io.listwatch.controllers.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * An amount of the two resources the scheduler checks: CPU in millicores and memory in bytes
 * (kube's {@code framework.Resource}, without extended resources). Quantities are rounded up,
 * as kube's {@code MilliValue()} and {@code Value()} do. Immutable.
 *
 * @param milliCpu CPU in thousandths of a core
 * @param memory memory in bytes
 */
record Resources(long milliCpu, long memory) {

  static final Resources ZERO = new Resources(0, 0);

  /** The {@code cpu} and {@code memory} entries of a resource list ({@code requests}, {@code allocatable}). */
  static Resources of(JsonNode list) {
    return new Resources(milli(list.path("cpu")), value(list.path("memory")));
  }

  /** A quantity in thousandths, rounded up; 0 when absent or malformed. */
  static long milli(JsonNode quantity) {
    return parse(quantity, BigDecimal.valueOf(1000));
  }

  /** A quantity as a whole number, rounded up; 0 when absent or malformed. */
  static long value(JsonNode quantity) {
    return parse(quantity, BigDecimal.ONE);
  }

  private static long parse(JsonNode quantity, BigDecimal scale) {
    if (quantity == null || quantity.isMissingNode() || quantity.isNull()) {
      return 0;
    }
    try {
      BigDecimal v = Quantity.parse(quantity.asText()).multiply(scale).setScale(0, RoundingMode.CEILING);
      return v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : v.longValue();
    } catch (IllegalArgumentException e) {
      return 0; // the API server validates quantities; a bad one counts as none
    }
  }

  Resources plus(Resources o) {
    return new Resources(milliCpu + o.milliCpu, memory + o.memory);
  }

  Resources minus(Resources o) {
    return new Resources(milliCpu - o.milliCpu, memory - o.memory);
  }

  Resources max(Resources o) {
    return new Resources(Math.max(milliCpu, o.milliCpu), Math.max(memory, o.memory));
  }
}

package io.listwatch.bench.report;

import java.util.OptionalDouble;

/**
 * One named figure of a run and its spread: the value (a suite's median when it ran a point
 * several times) and, when the suite recorded them, the least and greatest of the runs.
 * Immutable; thread-safe.
 *
 * @param key the figure's key without its statistic, e.g. {@code list.pods100000.parsedMs}
 * @param value the figure (the median when there were several runs)
 * @param min the least of the runs, if recorded
 * @param max the greatest of the runs, if recorded
 */
record Figure(String key, double value, OptionalDouble min, OptionalDouble max) {

  /** Whether the least and greatest of several runs are known. */
  boolean hasSpread() {
    return min.isPresent() && max.isPresent();
  }

  /** The value with its spread when known: {@code 23.4 (21.0–30.2)}. */
  String text() {
    return hasSpread()
        ? format(value) + " (" + format(min.getAsDouble()) + "–" + format(max.getAsDouble()) + ")"
        : format(value);
  }

  /** A number as the report prints it: separators above 100, 1 decimal above 10, else 2. */
  static String format(double d) {
    double abs = Math.abs(d);
    return abs >= 100 ? String.format("%,.0f", d) : abs >= 10 ? String.format("%.1f", d) : String.format("%.2f", d);
  }
}

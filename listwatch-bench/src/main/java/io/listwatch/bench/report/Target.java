package io.listwatch.bench.report;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One row of the report's "Targets" table: a target of the plan, the goal, and how to read the
 * figure it is judged on from a run's {@link Figures}. The factories cover the three kinds of
 * goals (a ceiling, a floor, a ratio of two figures). Immutable; thread-safe.
 *
 * @param number the target's number in the plan (step 11's list), e.g. {@code 2}
 * @param name what is measured, in words
 * @param goal the goal as printed, e.g. {@code <= 5 ms}
 * @param measure the figure as printed and whether it meets the goal; empty when the run did
 *     not record the figures it needs
 * @param keys the figure keys it reads, printed when they are missing
 */
record Target(String number, String name, String goal, Function<Figures, Optional<Outcome>> measure,
    List<String> keys) {

  /** The figure a target is judged on, as printed, and the verdict. */
  record Outcome(String figure, boolean met) {
  }

  /** A target met when the figure {@code key} is at most {@code limit} (in {@code unit}). */
  static Target atMost(String number, String name, String key, double limit, String unit) {
    return new Target(number, name, "<= " + io.listwatch.bench.Format.number(limit) + unit,
        f -> f.get(key).map(x -> new Outcome(x.text() + unit, x.value() <= limit)), List.of(key));
  }

  /** A target met when the figure {@code key} is at least {@code limit} (in {@code unit}). */
  static Target atLeast(String number, String name, String key, double limit, String unit) {
    return new Target(number, name, ">= " + io.listwatch.bench.Format.number(limit) + unit,
        f -> f.get(key).map(x -> new Outcome(x.text() + unit, x.value() >= limit)), List.of(key));
  }

  /**
   * A target met when the first recorded of {@code numerators} is at least {@code fraction} of
   * {@code denominator}: both figures are printed beside the ratio.
   */
  static Target fractionAtLeast(String number, String name, List<String> numerators, String denominator,
      double fraction) {
    List<String> keys = new java.util.ArrayList<>(numerators);
    keys.add(denominator);
    return new Target(number, name, String.format(">= %.0f%%", fraction * 100),
        f -> f.first(numerators.toArray(String[]::new)).flatMap(n -> f.get(denominator).map(d -> {
          double ratio = n.value() / d.value();
          return new Outcome(String.format("%.0f%% (%s / %s)", ratio * 100, n.text(), d.text()), ratio >= fraction);
        })), keys);
  }

  /** The table row: number, name, figure, goal, verdict. */
  List<String> row(Figures figures) {
    Optional<Outcome> o = measure.apply(figures);
    return List.of(number, name,
        o.map(Outcome::figure).orElse("not measured (no " + String.join(", ", keys.stream()
            .map(k -> "`" + k + "`").toList()) + ")"),
        goal, o.map(x -> x.met() ? "met" : "**MISSED**").orElse("not measured"));
  }
}

package io.listwatch.bench.report;

import io.listwatch.bench.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The named figures of every suite of one run ({@link io.listwatch.bench.Report#figure}), read
 * with their spread. A figure {@code K} is the value recorded as {@code K}, or else as
 * {@code K.median}; its spread is {@code K.min} and {@code K.max} when both were recorded. So a
 * suite that runs a point several times records {@code K.median}, {@code K.min} and
 * {@code K.max}, and one run records {@code K}. A suite may instead record each run as
 * {@code K.run1}, {@code K.run2}, ...: those are read as {@code K.median}, {@code K.min} and
 * {@code K.max} over the runs ({@link Spread}), or as {@code K} when there is one.
 * Immutable; thread-safe.
 */
final class Figures {

  private static final Pattern STATISTIC = Pattern.compile("\\.(median|min|max)$");
  private static final Pattern RUN = Pattern.compile("\\.run\\d+$");

  private final Map<String, Double> all;

  Figures(Map<String, Double> all) {
    this.all = new LinkedHashMap<>();
    Map<String, List<Double>> runs = new LinkedHashMap<>();
    all.forEach((key, value) -> {
      java.util.regex.Matcher run = RUN.matcher(key);
      if (run.find()) {
        runs.computeIfAbsent(key.substring(0, run.start()), k -> new ArrayList<>()).add(value);
      } else {
        this.all.put(key, value);
      }
    });
    runs.forEach((key, values) -> {
      Spread spread = Spread.of(values);
      if (spread.count() == 1) {
        this.all.putIfAbsent(key, spread.median());
        return;
      }
      this.all.putIfAbsent(key + ".median", spread.median());
      this.all.putIfAbsent(key + ".min", spread.min());
      this.all.putIfAbsent(key + ".max", spread.max());
    });
  }

  /** The figure {@code key} (see the class comment), if the run recorded it. */
  Optional<Figure> get(String key) {
    Double value = all.containsKey(key) ? all.get(key) : all.get(key + ".median");
    if (value == null) {
      return Optional.empty();
    }
    return Optional.of(new Figure(key, value, optional(key + ".min"), optional(key + ".max")));
  }

  /** The first of {@code keys} the run recorded. */
  Optional<Figure> first(String... keys) {
    for (String key : keys) {
      Optional<Figure> f = get(key);
      if (f.isPresent()) {
        return f;
      }
    }
    return Optional.empty();
  }

  /** Every figure's key without its statistic, in the order first recorded. */
  Set<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    all.keySet().forEach(k -> keys.add(STATISTIC.matcher(k).replaceFirst("")));
    return keys;
  }

  /** Every figure's key and value, as recorded, with a suite's runs ({@code K.run<i>}) read as their statistics. */
  Map<String, Double> raw() {
    return java.util.Collections.unmodifiableMap(all);
  }

  private OptionalDouble optional(String key) {
    Double d = all.get(key);
    return d == null ? OptionalDouble.empty() : OptionalDouble.of(d);
  }
}

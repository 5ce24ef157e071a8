package io.listwatch.bench;

import java.util.Arrays;
import java.util.Collection;

/**
 * The least, the median and the greatest of a benchmark's runs of one figure: how every suite
 * and the report reduce repeated runs to one figure with its spread. The median of an even
 * number of runs is the mean of the middle two.
 *
 * <p>Immutable; thread-safe.
 *
 * @param min the least run
 * @param median the median run
 * @param max the greatest run
 * @param count how many runs
 */
public record Spread(double min, double median, double max, int count) {

  /** The spread of {@code values}; at least one. */
  public static Spread of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return new Spread(v[0], n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[n - 1], n);
  }

  /** The spread of {@code values}; at least one. */
  public static Spread of(Collection<Double> values) {
    return of(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}

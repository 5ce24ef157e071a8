package io.listwatch.apiserver.flowcontrol;

import java.util.Arrays;
import java.util.List;

/**
 * How the server's seats are shared out among priority levels when they borrow from each other
 * (kube's {@code computeConcurrencyAllocation}): each level gets one fair fraction {@code f} of its
 * target, held within its bounds, and the allocations sum to the seats there are.
 *
 * <p>{@code alloc(i) = min(upper(i), max(lower(i), f * target(i)))} grows continuously with
 * {@code f} and is linear between the points where some level reaches a bound, so {@code f} is
 * found by walking those points in order and solving the one segment where the sum crosses the
 * required total. A target under {@link #MIN_TARGET} counts as {@link #MIN_TARGET}, so that a level
 * with no demand still has a direction to grow in.
 *
 * <p>Stateless.
 */
final class ConcurrencyAllocation {

  /** kube's smallest target. */
  static final double MIN_TARGET = 0.001;

  /**
   * One level's wish: at least {@code lowerBound}, at most {@code upperBound}, and
   * {@code target} in proportion to the others; {@code 0 <= lowerBound <= target} and
   * {@code lowerBound <= upperBound}.
   */
  record Item(double target, double lowerBound, double upperBound) {
  }

  /** The allocations, in the items' order, and the fair fraction that gave them. */
  record Result(double[] allocations, double fairFraction) {
  }

  private ConcurrencyAllocation() {
  }

  /**
   * @throws IllegalArgumentException when the items break their contract, or their bounds
   *     cannot meet {@code requiredSum} (lower bounds above it, upper bounds below it)
   */
  static Result allocate(int requiredSum, List<Item> items) {
    if (requiredSum < 0) {
      throw new IllegalArgumentException("a negative sum of seats");
    }
    int n = items.size();
    double[] targets = new double[n];
    double lowSum = 0;
    double highSum = 0;
    for (int i = 0; i < n; i++) {
      Item item = items.get(i);
      if (item.lowerBound() < 0 || item.target() < item.lowerBound() || item.upperBound() < item.lowerBound()) {
        throw new IllegalArgumentException("item " + i + " breaks 0 <= lower <= target and lower <= upper: " + item);
      }
      targets[i] = Math.max(MIN_TARGET, item.target());
      lowSum += item.lowerBound();
      highSum += item.upperBound();
    }
    double required = requiredSum;
    double epsilon = 1e-7;
    if (lowSum - required > epsilon || required - highSum > epsilon) {
      throw new IllegalArgumentException("bounds summing to [" + lowSum + ", " + highSum
          + "] cannot give " + requiredSum + " seats");
    }
    double[] out = new double[n];
    if (requiredSum == 0) {
      return new Result(out, 0);
    }
    // every f where some item starts or stops following f * target, in increasing order
    double[] points = new double[2 * n];
    for (int i = 0; i < n; i++) {
      points[2 * i] = items.get(i).lowerBound() / targets[i];
      points[2 * i + 1] = items.get(i).upperBound() / targets[i];
    }
    Arrays.sort(points);
    double previous = points[0];
    double sumAtPrevious = sumAt(previous, items, targets);
    if (sumAtPrevious >= required - epsilon) {
      return fill(previous, items, targets);
    }
    for (int k = 1; k < points.length; k++) {
      double point = points[k];
      double sumAtPoint = sumAt(point, items, targets);
      if (sumAtPoint >= required - epsilon) {
        // linear between the two points
        double f = sumAtPoint == sumAtPrevious ? point
            : previous + (required - sumAtPrevious) * (point - previous) / (sumAtPoint - sumAtPrevious);
        return fill(f, items, targets);
      }
      previous = point;
      sumAtPrevious = sumAtPoint;
    }
    return fill(points[points.length - 1], items, targets); // every item at its upper bound
  }

  private static double sumAt(double f, List<Item> items, double[] targets) {
    double sum = 0;
    for (int i = 0; i < targets.length; i++) {
      sum += clamp(f * targets[i], items.get(i));
    }
    return sum;
  }

  private static Result fill(double f, List<Item> items, double[] targets) {
    double[] out = new double[targets.length];
    for (int i = 0; i < targets.length; i++) {
      out[i] = clamp(f * targets[i], items.get(i));
    }
    return new Result(out, f);
  }

  private static double clamp(double x, Item item) {
    return Math.max(item.lowerBound(), Math.min(item.upperBound(), x));
  }
}

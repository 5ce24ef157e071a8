package io.listwatch.bench.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of one property the {@link HistoryChecker} checks: how many cases it looked at,
 * and every counterexample (the first few kept whole, the rest counted).
 *
 * <p>Not thread-safe: filled by the checker, then read.
 */
final class Check {

  private static final int KEPT = 5;

  private final String name;
  private final List<String> counterexamples = new ArrayList<>();
  private long cases;
  private long violations;

  Check(String name) {
    this.name = name;
  }

  String name() {
    return name;
  }

  /** One more case looked at. */
  void checked() {
    cases++;
  }

  void violated(String counterexample) {
    violations++;
    if (counterexamples.size() < KEPT) {
      counterexamples.add(counterexample);
    }
  }

  boolean passed() {
    return violations == 0;
  }

  long cases() {
    return cases;
  }

  long violations() {
    return violations;
  }

  /** The first counterexamples, at most five. */
  List<String> counterexamples() {
    return List.copyOf(counterexamples);
  }

  @Override
  public String toString() {
    return (passed() ? "PASS " : "FAIL ") + name + " (" + cases + " checked"
        + (passed() ? ")" : ", " + violations + " violations; first: " + counterexamples.getFirst() + ")");
  }
}

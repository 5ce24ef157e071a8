package io.listwatch.client.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Failures in a row per item, since it was last forgotten: the state of the per-item rate
 * limiters. Counts saturate at {@link Integer#MAX_VALUE}.
 *
 * <p>Thread-safe: {@link #counts} is guarded by {@code this}.
 */
final class FailureCounts<T> {

  @GuardedBy("this")
  private final Map<T, Integer> counts = new HashMap<>();

  /** Counts one more failure of {@code item}; returns its count including this one. */
  synchronized int increment(T item) {
    Objects.requireNonNull(item, "item");
    return counts.merge(item, 1, (a, b) -> a == Integer.MAX_VALUE ? a : a + b);
  }

  synchronized void forget(T item) {
    counts.remove(item);
  }

  synchronized int get(T item) {
    return counts.getOrDefault(item, 0);
  }
}

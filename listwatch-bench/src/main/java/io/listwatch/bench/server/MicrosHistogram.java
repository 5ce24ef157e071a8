package io.listwatch.bench.server;

/**
 * Latencies counted per microsecond up to about one second, with everything slower in one
 * overflow bucket (whose exact maximum is kept): fixed memory (4 MiB) however many samples,
 * so the watch client can record every delivery, millions per run, without allocating.
 * Percentiles are exact to the microsecond below the overflow.
 *
 * <p>Not thread-safe: one recording thread; read it after that thread has published
 * (the watch client hands it over on its own thread's exit or under its lock).
 */
final class MicrosHistogram {

  private static final int BUCKETS = 1 << 20; // 1,048,576 µs: about 1.05 s

  private final int[] counts = new int[BUCKETS];
  private long overflow;
  private long total;
  private long maxNanos;

  /** Adds one sample; negative values (clock noise) count as 0. */
  void record(long nanos) {
    if (nanos < 0) {
      nanos = 0;
    }
    long micros = nanos / 1000;
    if (micros < BUCKETS) {
      counts[(int) micros]++;
    } else {
      overflow++;
    }
    total++;
    if (nanos > maxNanos) {
      maxNanos = nanos;
    }
  }

  void reset() {
    java.util.Arrays.fill(counts, 0);
    overflow = 0;
    total = 0;
    maxNanos = 0;
  }

  long count() {
    return total;
  }

  long maxNanos() {
    return maxNanos;
  }

  /**
   * The sample at quantile {@code q} by the nearest-rank method, in nanoseconds (the upper
   * end of its microsecond); the maximum when the rank falls in the overflow; 0 when empty.
   */
  long percentileNanos(double q) {
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(maxNanos, (i + 1) * 1000L);
      }
    }
    return maxNanos;
  }
}

package io.listwatch.bench;

import java.util.Arrays;

/**
 * Records latencies in nanoseconds and reports percentiles over every sample (no
 * histogram buckets, so the figures are exact).
 *
 * <p>Not thread-safe: give each writer thread its own recorder and {@link #merge} them once
 * the threads have been joined. Memory is 8 bytes per sample, a few MB for a benchmark run.
 */
public final class LatencyRecorder {

  private long[] samples = new long[1024];
  private int size;
  private boolean sorted = true;

  /** Adds one sample. */
  public void record(long nanos) {
    if (size == samples.length) {
      samples = Arrays.copyOf(samples, size * 2);
    }
    samples[size++] = nanos;
    sorted = false;
  }

  /** Adds every sample of {@code other}, which is left unchanged. */
  public void merge(LatencyRecorder other) {
    if (size + other.size > samples.length) {
      samples = Arrays.copyOf(samples, Math.max(samples.length * 2, size + other.size));
    }
    System.arraycopy(other.samples, 0, samples, size, other.size);
    size += other.size;
    sorted = false;
  }

  public int count() {
    return size;
  }

  /**
   * The sample at quantile {@code q} (0 to 1) by the nearest-rank method, in nanoseconds;
   * 0 when there are no samples.
   */
  public long percentile(double q) {
    if (q < 0 || q > 1) {
      throw new IllegalArgumentException("quantile must be in [0, 1], got " + q);
    }
    if (size == 0) {
      return 0;
    }
    sortIfNeeded();
    int rank = (int) Math.ceil(q * size);
    return samples[Math.max(0, rank - 1)];
  }

  public long max() {
    return percentile(1);
  }

  public double meanNanos() {
    if (size == 0) {
      return 0;
    }
    double sum = 0;
    for (int i = 0; i < size; i++) {
      sum += samples[i];
    }
    return sum / size;
  }

  private void sortIfNeeded() {
    if (!sorted) {
      Arrays.sort(samples, 0, size);
      sorted = true;
    }
  }
}

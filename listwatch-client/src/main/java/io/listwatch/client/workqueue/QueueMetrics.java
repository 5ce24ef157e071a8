package io.listwatch.client.workqueue;

import java.time.Duration;

/**
 * The running counters behind {@link WorkQueueMetrics}: plain fields, no atomics, because
 * every call happens under the owning {@link DefaultWorkQueue}'s lock. Not thread-safe on
 * its own: guarded by the owner's lock.
 */
final class QueueMetrics {

  private long adds;
  private long retries;
  private final Timer queueLatency = new Timer();
  private final Timer workDuration = new Timer();

  /** An item became queued or dirty. */
  void added() {
    adds++;
  }

  /** {@link DelayingQueue#addAfter} was called. */
  void retried() {
    retries++;
  }

  /** An item was handed out {@code waitedNanos} after it became queued or dirty. */
  void handedOut(long waitedNanos) {
    queueLatency.observe(waitedNanos);
  }

  /** An item was done after {@code workedNanos} of processing. */
  void done(long workedNanos) {
    workDuration.observe(workedNanos);
  }

  WorkQueueMetrics snapshot(String name, int depth, long longestNanos, long unfinishedNanos) {
    return new WorkQueueMetrics(
        name,
        depth,
        adds,
        retries,
        Duration.ofNanos(longestNanos),
        Duration.ofNanos(unfinishedNanos),
        queueLatency.snapshot(),
        workDuration.snapshot());
  }

  /** Count, sum and max of durations in nanoseconds. Guarded by the owner's lock. */
  private static final class Timer {
    private long count;
    private long sumNanos;
    private long maxNanos;

    void observe(long nanos) {
      long n = Math.max(0, nanos);
      count++;
      sumNanos = Nanos.saturatedAdd(sumNanos, n);
      maxNanos = Math.max(maxNanos, n);
    }

    WorkQueueMetrics.Timing snapshot() {
      return new WorkQueueMetrics.Timing(count, Duration.ofNanos(sumNanos), Duration.ofNanos(maxNanos));
    }
  }
}

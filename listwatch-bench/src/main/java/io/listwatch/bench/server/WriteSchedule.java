package io.listwatch.bench.server;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One writer's schedule in a fan-out point, and what its writes measured, open loop: writer i
 * of n at a total of {@code rate} writes/s has its k-th slot at
 * {@code t0 + (k + i/n) * n/rate}, and each write's latency counts from its slot, its intended
 * send time, not from when it left. A write sent late because the one before it was answered
 * late so counts its wait (no coordinated omission); how late it left is recorded apart, as
 * the pacer's lateness. At rate 0 (closed loop) a write is due when it is sent.
 *
 * <p>Not thread-safe: confined to its writer's thread; the histograms are read once that
 * thread has been joined.
 */
final class WriteSchedule {

  /** Latencies, in nanoseconds from the intended send time to the answer, of writes due in the window. */
  final Histogram latencies = new Histogram(3);
  /** How late, in nanoseconds, each write due in the window left after its intended send time. */
  final Histogram lateness = new Histogram(3);

  private final long interval;
  private final long measureFrom;
  private long next;

  /**
   * Writer {@code writer} of {@code writers} starting at {@code t0}, at {@code rate} writes/s in
   * all (0: closed loop), measuring writes due from {@code measureFrom} on (nanoTime).
   */
  WriteSchedule(long t0, long measureFrom, int rate, int writer, int writers) {
    this.interval = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * writers / rate;
    this.measureFrom = measureFrom;
    this.next = t0 + (interval * writer) / writers;
  }

  /** Whether writes have slots (a rate was asked). */
  boolean paced() {
    return interval > 0;
  }

  /** The next write's slot, its intended send time; moves on to the one after. Paced only. */
  long nextSlot() {
    long slot = next;
    next += interval;
    return slot;
  }

  /**
   * A write intended at {@code intended} (its slot, or when it was sent if closed loop), sent
   * at {@code sent}, was answered at {@code done}.
   */
  void answered(long intended, long sent, long done) {
    if (intended - measureFrom >= 0) {
      latencies.recordValue(Math.max(0, done - intended));
      if (paced()) {
        lateness.recordValue(Math.max(0, sent - intended));
      }
    }
  }
}

package io.listwatch.apiserver.flowcontrol;

/**
 * A level's seat demand (seats executing plus seats waiting) integrated over time since the
 * last {@link #reset}, as kube's {@code fairqueuing.Integrator}: the time-weighted average and
 * standard deviation, and the highest value, which borrowing between levels
 * ({@link FlowControl}) reads every adjustment period.
 *
 * <p>Not thread-safe: guarded by its {@link QueueSet}'s monitor.
 */
final class SeatDemand {

  /** What one period saw; {@code seconds == 0} when no time passed. */
  record Period(double seconds, double average, double deviation, double max) {
  }

  private long since;
  private long lastNanos;
  private double value;
  private double sum;
  private double sumOfSquares;
  private double max;

  SeatDemand(long nowNanos) {
    since = nowNanos;
    lastNanos = nowNanos;
  }

  /** The demand is {@code x} from {@code nowNanos} on. */
  void set(double x, long nowNanos) {
    advance(nowNanos);
    value = x;
    max = Math.max(max, x);
  }

  /** The period up to {@code nowNanos}; the next starts there, at the current demand. */
  Period reset(long nowNanos) {
    advance(nowNanos);
    double seconds = (nowNanos - since) / 1e9;
    Period p;
    if (seconds <= 0) {
      p = new Period(0, value, 0, max);
    } else {
      double average = sum / seconds;
      double variance = sumOfSquares / seconds - average * average;
      p = new Period(seconds, average, Math.sqrt(Math.max(0, variance)), max);
    }
    since = nowNanos;
    sum = 0;
    sumOfSquares = 0;
    max = value;
    return p;
  }

  private void advance(long nowNanos) {
    double dt = (nowNanos - lastNanos) / 1e9;
    if (dt > 0) {
      sum += value * dt;
      sumOfSquares += value * value * dt;
      lastNanos = nowNanos;
    }
  }
}

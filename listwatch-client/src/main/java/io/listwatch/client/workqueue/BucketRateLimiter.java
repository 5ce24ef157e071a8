package io.listwatch.client.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * An overall token bucket (client-go's {@code TypedBucketRateLimiter} over
 * {@code golang.org/x/time/rate}): it holds up to {@code burst} tokens, refills {@code qps}
 * tokens per second, and starts full. {@link #when} <em>reserves</em> one token and answers how
 * long until that token exists: zero while tokens are left, then {@code 1/qps},
 * {@code 2/qps}, ... for callers that come faster than the refill. Items are ignored; forget
 * does nothing and {@link #numRequeues} is always zero.
 *
 * <h2>Design</h2>
 *
 * The bucket is kept in time units, exactly: {@link #credit} is the number of tokens times
 * {@link #intervalNanos} (the time one token takes to refill), at most {@link #capacityNanos}
 * and negative when reservations run ahead of the refill. Elapsed clock time is added to it,
 * each reservation subtracts one interval, and a negative credit is the wait.
 *
 * <p>Thread-safe: the state is guarded by {@code this}.
 */
final class BucketRateLimiter<T> implements RateLimiter<T> {

  private final Clock clock;
  /** Refill time of one token, in nanos (zero for rates above a billion per second). */
  private final long intervalNanos;
  /** {@code burst · intervalNanos}: the credit of a full bucket. */
  private final long capacityNanos;
  /** Tokens available times {@link #intervalNanos}; negative = owed. */
  @GuardedBy("this")
  private long credit;
  /** Clock nanos when {@link #credit} was last brought up to date. */
  @GuardedBy("this")
  private long updatedAt;

  BucketRateLimiter(double qps, int burst, Clock clock) {
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("qps must be positive and finite: " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1: " + burst);
    }
    this.clock = Objects.requireNonNull(clock, "clock");
    double interval = Math.rint(1e9 / qps);
    if (interval * burst > Nanos.MAX_DELAY) {
      throw new IllegalArgumentException(
          "burst " + burst + " at " + qps + " qps takes longer than " + Duration.ofNanos(Nanos.MAX_DELAY) + " to refill");
    }
    this.intervalNanos = (long) interval;
    this.capacityNanos = intervalNanos * burst;
    this.credit = capacityNanos;
    this.updatedAt = clock.nanoTime();
  }

  @Override
  public Duration when(T item) {
    long now = clock.nanoTime();
    long owed;
    synchronized (this) {
      if (now - updatedAt > 0) {
        credit = Math.min(capacityNanos, Nanos.saturatedAdd(credit, now - updatedAt));
        updatedAt = now;
      }
      // Floor at -MAX_DELAY: waits beyond ~73 years are all the same.
      credit = Math.max(credit - intervalNanos, -Nanos.MAX_DELAY);
      owed = -credit;
    }
    return Duration.ofNanos(Math.max(0, owed));
  }

  @Override
  public void forget(T item) {}

  @Override
  public int numRequeues(T item) {
    return 0;
  }
}

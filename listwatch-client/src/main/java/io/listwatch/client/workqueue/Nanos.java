package io.listwatch.client.workqueue;

import java.time.Duration;

/** Overflow-safe arithmetic on nanosecond counts, and argument checks. Stateless. */
final class Nanos {

  /**
   * The longest delay a queue or limiter hands out: about 73 years, so that adding it to any
   * clock reading still fits in a {@code long}.
   */
  static final long MAX_DELAY = Long.MAX_VALUE / 4;

  private Nanos() {}

  /** {@code duration} in nanoseconds, negative as zero, capped at {@link #MAX_DELAY}. */
  static long delayOf(Duration duration) {
    if (duration.isNegative()) {
      return 0;
    }
    if (duration.compareTo(Duration.ofNanos(MAX_DELAY)) > 0) {
      return MAX_DELAY;
    }
    return duration.toNanos();
  }

  /** Throws unless {@code duration} is zero or positive; returns it as a capped delay. */
  static long requireNonNegative(Duration duration, String what) {
    if (duration == null) {
      throw new NullPointerException(what);
    }
    if (duration.isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative: " + duration);
    }
    return delayOf(duration);
  }

  static long saturatedAdd(long a, long b) {
    long sum = a + b;
    // Overflow iff both operands have the sign opposite to the result.
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }
}

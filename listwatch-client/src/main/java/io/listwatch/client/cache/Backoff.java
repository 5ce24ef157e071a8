package io.listwatch.client.cache;

import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Jittered exponential backoff that starts over after a quiet period: client-go's
 * {@code wait.Backoff} driven through {@code DelayWithReset}, as the reflector's backoff
 * manager uses it (800 ms initial, factor 2, jitter 1.0, cap 30 s, reset after 2 minutes).
 *
 * <p>Each {@link #next()} returns the current step's base delay plus a random part of up to
 * {@code jitter} times that base, then multiplies the base by {@code factor}, up to
 * {@code max}. The cap bounds the base, not the jittered delay: with jitter 1.0 a delay at
 * the cap lies in [max, 2 × max), as in client-go, so clients that all failed together stay
 * spread out. When more than {@code resetAfter} of clock time has passed since the previous
 * {@link #next()} (the retried operation was healthy for that long), the base starts again
 * from {@code initial}.
 *
 * <p>Not thread-safe: confined to its owner's thread (the reflector's).
 */
final class Backoff {

  static final Duration DEFAULT_INITIAL = Duration.ofMillis(800);
  static final Duration DEFAULT_MAX = Duration.ofSeconds(30);
  static final Duration DEFAULT_RESET_AFTER = Duration.ofMinutes(2);
  static final double DEFAULT_FACTOR = 2.0;
  static final double DEFAULT_JITTER = 1.0;

  private final long initialNanos;
  private final long maxNanos;
  private final long resetAfterNanos;
  private final double factor;
  private final double jitter;
  private final Clock clock;
  private final RandomGenerator random;

  /** The base delay of the next step. */
  private long baseNanos;
  /** {@link Clock#nanoTime()} of the previous {@link #next()}; meaningful once {@link #used}. */
  private long lastNanos;
  private boolean used;

  /**
   * @param initial the first delay's base, positive
   * @param max the cap on the base, at least {@code initial}
   * @param resetAfter how long without a {@link #next()} starts the sequence over, positive
   * @param factor how much the base grows per step, at least 1
   * @param jitter the random part, as a fraction of the base, 0 (none) or more
   * @throws IllegalArgumentException when a value is out of range
   */
  Backoff(Duration initial, Duration max, Duration resetAfter, double factor, double jitter,
      Clock clock, RandomGenerator random) {
    requireArgument(initial.isPositive(), "initial backoff must be positive: " + initial);
    requireArgument(max.compareTo(initial) >= 0,
        "max backoff " + max + " is less than the initial backoff " + initial);
    requireArgument(resetAfter.isPositive(), "backoff reset must be positive: " + resetAfter);
    requireArgument(factor >= 1.0, "backoff factor must be at least 1: " + factor);
    requireArgument(jitter >= 0.0, "backoff jitter must not be negative: " + jitter);
    this.initialNanos = initial.toNanos();
    this.maxNanos = max.toNanos();
    this.resetAfterNanos = resetAfter.toNanos();
    this.factor = factor;
    this.jitter = jitter;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
    this.baseNanos = initialNanos;
  }

  /** client-go's reflector backoff with the given initial delay and cap. */
  static Backoff reflectorDefaults(Duration initial, Duration max, Clock clock,
      RandomGenerator random) {
    return new Backoff(initial, max, DEFAULT_RESET_AFTER, DEFAULT_FACTOR, DEFAULT_JITTER, clock,
        random);
  }

  /** The delay to wait before the next retry; advances the sequence. */
  Duration next() {
    long now = clock.nanoTime();
    if (used && now - lastNanos > resetAfterNanos) {
      baseNanos = initialNanos;
    }
    used = true;
    lastNanos = now;
    long base = baseNanos;
    baseNanos = (long) Math.min((double) maxNanos, base * factor);
    long delay = jitter > 0 ? base + (long) (random.nextDouble() * jitter * base) : base;
    return Duration.ofNanos(delay);
  }

  private static void requireArgument(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}

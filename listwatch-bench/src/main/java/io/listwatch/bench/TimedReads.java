package io.listwatch.bench;

import java.util.Arrays;

/**
 * The timing of a read a benchmark repeats ({@link #run}): one untimed read first, which warms
 * the path up and whose result the caller checks, then {@code repeats} timed ones; what the
 * last one returned (no other result is kept), and their times, sorted. The median is the
 * middle time (of an even count, the upper of the two middle ones).
 *
 * <p>Immutable once made (do not change the array); {@link #run} runs on the caller's thread.
 *
 * @param last what the last timed read returned
 * @param sortedNanos the times of the timed reads, in nanoseconds, shortest first
 * @param <T> what a read returns
 */
public record TimedReads<T>(T last, long[] sortedNanos) {

  /** One read; {@code untimed} for the first one. */
  @FunctionalInterface
  public interface Read<T> {
    T read(boolean untimed) throws Exception;
  }

  /** What the caller does with the untimed read, before the timed ones: checks it, records it. */
  @FunctionalInterface
  public interface Untimed<T> {
    void accept(T result, long nanos) throws Exception;
  }

  /** {@link #run(int, Read, Untimed)} of a read that checks its results itself. */
  public static <T> TimedReads<T> run(int repeats, Read<T> read) throws Exception {
    return run(repeats, read, (result, nanos) -> { });
  }

  /** Reads once untimed, hands the result to {@code untimed}, then reads {@code repeats} times, timing each. */
  public static <T> TimedReads<T> run(int repeats, Read<T> read, Untimed<T> untimed) throws Exception {
    long start = System.nanoTime();
    untimed.accept(read.read(true), System.nanoTime() - start);
    long[] nanos = new long[repeats];
    T last = null;
    for (int i = 0; i < repeats; i++) {
      last = null; // what an earlier read returned is garbage during the next one
      start = System.nanoTime();
      last = read.read(false);
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return new TimedReads<>(last, nanos);
  }

  /** The median time in nanoseconds. */
  public long median() {
    return sortedNanos[sortedNanos.length / 2];
  }

  /** The shortest time in nanoseconds. */
  public long min() {
    return sortedNanos[0];
  }

  /** The longest time in nanoseconds. */
  public long max() {
    return sortedNanos[sortedNanos.length - 1];
  }
}

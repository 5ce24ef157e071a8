package io.listwatch.testsupport;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Waits for something another thread or process does in its own time: a bounded poll, the one
 * place in the tests that sleeps to wait for a condition.
 *
 * <pre>{@code
 * Await.until("the pod is bound", Duration.ofSeconds(15), () -> pods.get("web").isBound());
 * DynamicObject d = Await.until("the deployment is observed", Duration.ofSeconds(30),
 *     () -> deployments.get("default", "web").orElseThrow(), Deployments::observed);
 * }</pre>
 *
 * <p>The condition is read at once, then again after pauses that back off from
 * {@value #FIRST_PAUSE_MILLIS} ms, doubling up to {@value #MAX_PAUSE_MILLIS} ms, so a condition
 * that holds soon is seen soon and one that takes seconds is not read thousands of times. It is
 * read one last time at the bound; if it still does not hold, the wait fails with an
 * {@link AssertionError} that names what was awaited, the bound and the last value seen. An
 * exception thrown by the condition ends the wait at once (an assertion inside a condition
 * fails the test as it would outside); a checked one comes wrapped in an
 * {@link AssertionError}. The condition may throw checked exceptions so that a test can poll
 * a client whose reads declare them.
 *
 * <p>Proving that something does not happen is not a wait: use a latch or a fake clock, not a
 * bounded poll that expects to time out.
 *
 * <p>Stateless; each call polls on the calling thread. An interrupt ends the wait with an
 * {@link AssertionError} and leaves the thread's interrupt status set.
 */
public final class Await {

  /** The first pause between two reads of the condition. */
  public static final long FIRST_PAUSE_MILLIS = 1;
  /** The longest pause between two reads of the condition. */
  public static final long MAX_PAUSE_MILLIS = 100;

  private Await() {
  }

  /** A condition read again and again. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /** A value read again and again. */
  @FunctionalInterface
  public interface Probe<T> {
    T read() throws Exception;
  }

  /**
   * Polls {@code condition} until it holds, at most {@code bound}.
   *
   * @param what what is awaited, for the failure message ("the pod is bound")
   * @throws AssertionError if it does not hold within {@code bound}
   */
  public static void until(String what, Duration bound, Condition condition) {
    Objects.requireNonNull(condition, "condition");
    until(what, bound, condition::holds, Boolean::booleanValue);
  }

  /**
   * Reads {@code value} until {@code done} accepts it, at most {@code bound}; returns the value
   * accepted.
   *
   * @param what what is awaited, for the failure message ("the replica set has 3 pods")
   * @throws AssertionError if no value read within {@code bound} is accepted; its message
   *     carries the last value read
   */
  public static <T> T until(String what, Duration bound, Probe<? extends T> value, Predicate<? super T> done) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(done, "done");
    if (bound.isNegative() || bound.isZero()) {
      throw new IllegalArgumentException("the bound must be positive: " + bound);
    }
    long deadline = System.nanoTime() + bound.toNanos();
    long pauseMillis = FIRST_PAUSE_MILLIS;
    int reads = 0;
    while (true) {
      T seen = read(value, what);
      reads++;
      if (done.test(seen)) {
        return seen;
      }
      long leftNanos = deadline - System.nanoTime();
      if (leftNanos <= 0) {
        throw new AssertionError("waited " + describe(bound) + " (" + reads + " reads) until " + what
            + ", in vain; last value seen: " + seen);
      }
      pause(Math.min(pauseMillis, Math.max(1, leftNanos / 1_000_000)), what);
      pauseMillis = Math.min(pauseMillis * 2, MAX_PAUSE_MILLIS);
    }
  }

  private static <T> T read(Probe<? extends T> value, String what) {
    try {
      return value.read();
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting until " + what, e);
    } catch (Exception e) {
      throw new AssertionError("a read failed while waiting until " + what + ": " + e, e);
    }
  }

  private static void pause(long millis, String what) {
    try {
      Thread.sleep(millis); // the one sleep: between two reads of a condition, bounded by the caller
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting until " + what, e);
    }
  }

  /** {@code 15 s}, {@code 500 ms}, {@code 2 min}: as a reader writes a bound. */
  static String describe(Duration d) {
    if (d.toMillis() < 1000 || d.toMillis() % 1000 != 0) {
      return d.toMillis() + " ms";
    }
    long seconds = d.toSeconds();
    return seconds % 60 == 0 && seconds >= 60 ? seconds / 60 + " min" : seconds + " s";
  }
}

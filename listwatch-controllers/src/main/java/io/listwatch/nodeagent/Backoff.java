package io.listwatch.nodeagent;

import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * client-go's {@code flowcontrol.Backoff} as the kubelet uses it for restarting containers: a
 * back-off per key (here a pod's UID), starting at {@code initial}, doubling at each
 * {@link #next} up to {@code max}, and starting over once {@code 2 * max} has passed since the
 * last step (kube's rule, which with its 5 min maximum gives "reset after 10 min").
 *
 * <p>A container that exited at {@code finishedAt} is restarted only when
 * {@link #isInBackOffSince} is false; the restart is recorded with {@link #next}. So the first
 * exit of a container restarts it at once, the second waits {@code initial}, the third twice
 * that, and so on.
 *
 * <p>Not thread-safe: confined to the agent's pod worker thread, as {@link PodWorkers} is.
 */
final class Backoff {

  /** One key's state: the current back-off and when it was last stepped. */
  private record Entry(Duration backoff, Instant lastUpdate) {
  }

  private final Clock clock;
  private final Duration initial;
  private final Duration max;
  private final Map<String, Entry> entries = new HashMap<>();

  /**
   * @throws IllegalArgumentException if {@code initial} is not positive or {@code max} is less
   *     than it
   */
  Backoff(Clock clock, Duration initial, Duration max) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("back-off must be positive and at most its maximum, got " + initial
          + " and " + max);
    }
    this.initial = initial;
    this.max = max;
  }

  /** The current back-off of {@code key}; zero when it has none. */
  Duration get(String key) {
    Entry e = entries.get(key);
    return e == null ? Duration.ZERO : e.backoff();
  }

  /**
   * Whether a restart for an event (an exit) at {@code eventTime} must still wait: the key has a
   * back-off that has not expired and less than it has passed since {@code eventTime}.
   */
  boolean isInBackOffSince(String key, Instant eventTime) {
    Entry e = entries.get(key);
    if (e == null || expired(eventTime, e.lastUpdate())) {
      return false;
    }
    return Duration.between(eventTime, clock.now()).compareTo(e.backoff()) < 0;
  }

  /**
   * Steps the back-off of {@code key} for an event at {@code eventTime}: {@code initial} when it
   * has none or it expired, else doubled up to {@code max}.
   */
  void next(String key, Instant eventTime) {
    Entry e = entries.get(key);
    Duration backoff;
    if (e == null || expired(eventTime, e.lastUpdate())) {
      backoff = initial;
    } else {
      Duration doubled = e.backoff().multipliedBy(2);
      backoff = doubled.compareTo(max) > 0 ? max : doubled;
    }
    entries.put(key, new Entry(backoff, eventTime));
  }

  /** Forgets {@code key}. */
  void reset(String key) {
    entries.remove(key);
  }

  private boolean expired(Instant eventTime, Instant lastUpdate) {
    return Duration.between(lastUpdate, eventTime).compareTo(max.multipliedBy(2)) > 0;
  }
}

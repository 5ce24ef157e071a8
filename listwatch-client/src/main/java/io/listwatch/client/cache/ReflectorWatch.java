package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.WatchStream;
import java.time.Duration;

/**
 * One open watch of a {@link Reflector}, with its staleness check: a watch that delivers
 * nothing (no event, no bookmark) for {@code silenceLimit} is presumed dead (a half-open
 * connection, a proxy that stopped forwarding) and closed, so the reflector's blocked
 * {@code next()} returns and it can watch again.
 *
 * <p>The check is one task on the clock at a time: when it comes due it compares the time
 * of the last event with the limit and either closes the stream or schedules itself for
 * the moment the limit would be reached, which is the same as rescheduling on every event
 * without scheduling per event (an event costs one clock reading).
 *
 * <p>Thread-safety: {@link #noteEvent()}, {@link #events()} and {@link #age()} are confined to
 * the reflector's thread; the check runs on the clock's thread; {@link #close()} and
 * {@link #silent()} may be called from any thread.
 */
final class ReflectorWatch<T> implements AutoCloseable {

  private final WatchStream<T> stream;
  private final Clock clock;
  /** Zero or negative: no staleness check. */
  private final long silenceLimitNanos;
  private final long openedNanos;
  /** Written by the reflector's thread, read by the check. */
  private volatile long lastEventNanos;
  /** Set by the check when it closed the stream for silence. */
  private volatile boolean silent;
  /** Confined to the reflector's thread. */
  private long events;
  @GuardedBy("this")
  private boolean closed;
  /** The pending check. */
  @GuardedBy("this")
  private Clock.Cancellable check;

  /** A plain watch from {@code rv}, with bookmarks. */
  static ListOptions watchOptions(String rv, long timeoutSeconds) {
    return ListOptions.builder()
        .watch(true)
        .resourceVersion(rv)
        .allowWatchBookmarks(true)
        .timeoutSeconds(timeoutSeconds)
        .build();
  }

  /**
   * A watch-list from {@code rv} ({@code ""}: a consistent read): the current objects as
   * initial events, the {@code k8s.io/initial-events-end} bookmark, then the watch.
   */
  static ListOptions watchListOptions(String rv, long timeoutSeconds) {
    return ListOptions.builder()
        .watch(true)
        .sendInitialEvents(true)
        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN)
        .resourceVersion(rv)
        .allowWatchBookmarks(true)
        .timeoutSeconds(timeoutSeconds)
        .build();
  }

  ReflectorWatch(WatchStream<T> stream, Clock clock, Duration silenceLimit) {
    this.stream = stream;
    this.clock = clock;
    this.silenceLimitNanos = silenceLimit.toNanos();
    this.openedNanos = clock.nanoTime();
    this.lastEventNanos = openedNanos;
  }


  /** Starts the staleness check (if there is a limit). */
  void start() {
    if (silenceLimitNanos > 0) {
      scheduleCheck(silenceLimitNanos);
    }
  }

  /** Records that an event arrived now; returns the clock's nanoTime it read. */
  long noteEvent() {
    events++;
    long now = clock.nanoTime();
    lastEventNanos = now;
    return now;
  }

  /** Events received so far. */
  long events() {
    return events;
  }

  /** How long the watch has been open, in clock time. */
  Duration age() {
    return Duration.ofNanos(clock.nanoTime() - openedNanos);
  }

  /** Whether the staleness check closed this watch. */
  boolean silent() {
    return silent;
  }

  /** Stops the check and closes the stream. Idempotent; any thread. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (check != null) {
        check.cancel();
        check = null;
      }
    }
    stream.close();
  }

  private void scheduleCheck(long delayNanos) {
    synchronized (this) {
      if (!closed) {
        check = clock.schedule(Duration.ofNanos(delayNanos), this::check);
      }
    }
  }

  private void check() {
    long idle = clock.nanoTime() - lastEventNanos;
    if (idle < silenceLimitNanos) {
      scheduleCheck(silenceLimitNanos - idle);
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      silent = true;
    }
    close();
  }
}

package io.listwatch.client.cache;

import io.listwatch.api.clock.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one {@link Reflector}: how often it listed, relisted, watched and failed, and
 * when its last event arrived (for staleness alarms).
 *
 * <p>Thread-safe: written by the reflector's thread, readable from any thread. Each counter
 * is read on its own; a set of readings is not one snapshot.
 */
public final class ReflectorMetrics {

  private final AtomicLong lists = new AtomicLong();
  private final AtomicLong relists = new AtomicLong();
  private final AtomicLong listedItems = new AtomicLong();
  private final AtomicLong watches = new AtomicLong();
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final Clock clock;
  /** The clock's nanoTime of the last event, or {@link Long#MIN_VALUE} before the first. */
  private volatile long lastEventNanos = Long.MIN_VALUE;
  /** Whether a list (or watch-list) has filled the store at least once. */
  private volatile boolean synced;

  ReflectorMetrics(Clock clock) {
    this.clock = clock;
  }

  /** Lists started, counting watch-lists and every retry. */
  public long lists() {
    return lists.get();
  }

  /** Lists started after the store had been filled once (after 410s, failures, fallbacks). */
  public long relists() {
    return relists.get();
  }

  /** Objects delivered by completed lists, in total. */
  public long listedItems() {
    return listedItems.get();
  }

  /** Watches opened (or tried). */
  public long watches() {
    return watches.get();
  }

  /** Watch events received, bookmarks and errors included. */
  public long events() {
    return events.get();
  }

  /** Failures reported: list and watch errors, silent watches, rejected watch-lists. */
  public long errors() {
    return errors.get();
  }

  /** The reflector clock's time of the last watch event, empty before the first. */
  public Optional<Instant> lastEventTime() {
    long at = lastEventNanos;
    if (at == Long.MIN_VALUE) {
      return Optional.empty();
    }
    return Optional.of(clock.now().minusNanos(clock.nanoTime() - at));
  }

  void listStarted() {
    lists.incrementAndGet();
    if (synced) {
      relists.incrementAndGet();
    }
  }

  void listed(int items) {
    listedItems.addAndGet(items);
    synced = true;
  }

  void watchStarted() {
    watches.incrementAndGet();
  }

  /** An event arrived at the clock's {@code nanoTime} {@code atNanos}. */
  void event(long atNanos) {
    events.incrementAndGet();
    lastEventNanos = atNanos;
  }

  void error() {
    errors.incrementAndGet();
  }

  @Override
  public String toString() {
    return "ReflectorMetrics{lists=" + lists() + ", relists=" + relists() + ", listedItems="
        + listedItems() + ", watches=" + watches() + ", events=" + events() + ", errors="
        + errors() + ", lastEventTime=" + lastEventTime().orElse(null) + "}";
  }
}

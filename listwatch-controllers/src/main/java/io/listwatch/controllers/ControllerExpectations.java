package io.listwatch.controllers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code UIDTrackingControllerExpectations}: what a controller has asked the API server
 * to create and delete for each of its objects and not yet seen in its informer's cache, so
 * that a sync running on a stale cache does not act again (create twice as many pods, delete
 * the same pods twice).
 *
 * <p>The controller {@link #expectCreations} before it creates n dependents and
 * {@link #expectDeletions} (naming them) before it deletes; its informer handlers call
 * {@link #creationObserved} and {@link #deletionObserved} as the cache sees them; a write that
 * failed is taken back with {@link #creationObserved} / {@link #deletionObserved} too (kube's
 * {@code lowerExpectations}). A sync acts only when {@link #satisfiedExpectations} holds: no
 * expectations recorded, all of them observed, or the record older than {@link #EXPECTATIONS_TTL}
 * (a watch event lost for good must not block the controller forever).
 *
 * <p>Thread-safe: handler threads and workers call it concurrently; each controller key's
 * record is updated atomically (under its own lock).
 */
public final class ControllerExpectations {

  /** kube's {@code ExpectationsTimeout}. */
  public static final Duration EXPECTATIONS_TTL = Duration.ofMinutes(5);

  /** One controller key's outstanding adds and deletes. */
  private static final class Record {
    @GuardedBy("this")
    long adds;
    @GuardedBy("this")
    long dels;
    @GuardedBy("this")
    long timestampNanos;
    /** Keys of the dependents whose deletion is expected. */
    @GuardedBy("this")
    final Set<String> deleting;

    /** Expects {@code adds} creations and the deletion of each of {@code deleting}. */
    Record(long adds, Set<String> deleting, long timestampNanos) {
      this.adds = adds;
      this.deleting = deleting;
      this.dels = deleting.size();
      this.timestampNanos = timestampNanos;
    }
  }

  private final Clock clock;
  private final Map<String, Record> records = new ConcurrentHashMap<>();

  public ControllerExpectations(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Whether the controller of {@code key} may act: nothing is expected, everything expected
   * was observed, or the expectations expired.
   */
  public boolean satisfiedExpectations(String key) {
    Record r = records.get(key);
    if (r == null) {
      return true;
    }
    synchronized (r) {
      return (r.adds <= 0 && r.dels <= 0)
          || clock.nanoTime() - r.timestampNanos > EXPECTATIONS_TTL.toNanos();
    }
  }

  /** Expects {@code count} creations for {@code key}, replacing what was expected before. */
  public void expectCreations(String key, int count) {
    records.put(key, new Record(count, new HashSet<>(), clock.nanoTime()));
  }

  /**
   * Expects the deletion of the dependents {@code dependentKeys} ({@code namespace/name}) for
   * {@code key}, replacing what was expected before.
   */
  public void expectDeletions(String key, Collection<String> dependentKeys) {
    records.put(key, new Record(0, new HashSet<>(dependentKeys), clock.nanoTime()));
  }

  /** One creation for {@code key} was seen (or failed and will not be seen). */
  public void creationObserved(String key) {
    Record r = records.get(key);
    if (r != null) {
      synchronized (r) {
        r.adds--;
      }
    }
  }

  /**
   * The deletion of {@code dependentKey} for {@code key} was seen (or failed). Counted once per
   * expected dependent: a dependent not expected, or seen twice, changes nothing.
   */
  public void deletionObserved(String key, String dependentKey) {
    Record r = records.get(key);
    if (r != null) {
      synchronized (r) {
        if (r.deleting.remove(dependentKey)) {
          r.dels--;
        }
      }
    }
  }

  /** Forgets {@code key} (its object was deleted). */
  public void deleteExpectations(String key) {
    records.remove(key);
  }

  /** Creations and deletions still expected for one key (negative when more were seen). */
  public record Pending(long adds, long dels) {}

  /** What is still expected for {@code key}, if anything is recorded (for logs and tests). */
  public Optional<Pending> pending(String key) {
    Record r = records.get(key);
    if (r == null) {
      return Optional.empty();
    }
    synchronized (r) {
      return Optional.of(new Pending(r.adds, r.dels));
    }
  }
}

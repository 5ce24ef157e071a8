package io.listwatch.apiserver.cacher;

import java.util.ArrayList;
import java.util.List;

/**
 * The ring buffer of recent events that lets a watch resume from a resourceVersion.
 *
 * <p>Bounded by count ({@code capacity}) and by age ({@code maxAgeNanos}): appending evicts
 * the oldest events beyond either bound. Every event with a resourceVersion above
 * {@link #oldestResumable()} is in the buffer, so a watch from any resourceVersion at or
 * above it can be served completely; older ones get 410 Expired.
 *
 * <p>Not thread-safe: guarded by the owning {@link WatchCache}'s lock.
 */
final class EventHistory {

  private final WatchCacheEvent[] ring;
  private final long maxAgeNanos;
  private int start; // index of the oldest event
  private int size;
  /** Every event after this resourceVersion is in the buffer. */
  private long oldestResumable;

  EventHistory(int capacity, long maxAgeNanos, long startResourceVersion) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
    }
    this.ring = new WatchCacheEvent[capacity];
    this.maxAgeNanos = maxAgeNanos;
    this.oldestResumable = startResourceVersion;
  }

  /** Appends an event (resourceVersions must increase) and evicts what is too old. */
  void append(WatchCacheEvent event, long nowNanos) {
    if (size == ring.length) {
      evictOldest();
    }
    ring[(start + size) % ring.length] = event;
    size++;
    evictOlderThan(nowNanos);
  }

  /** Drops events older than the age bound (called on append and periodically). */
  void evictOlderThan(long nowNanos) {
    while (size > 1 && nowNanos - ring[start].recordedAtNanos() > maxAgeNanos) {
      evictOldest();
    }
  }

  private void evictOldest() {
    oldestResumable = ring[start].resourceVersion();
    ring[start] = null;
    start = (start + 1) % ring.length;
    size--;
  }

  /** A watch from a resourceVersion at or above this one can be served from the buffer. */
  long oldestResumable() {
    return oldestResumable;
  }

  /** The events with a resourceVersion above {@code after}, oldest first. */
  List<WatchCacheEvent> since(long after) {
    // binary search for the first event with resourceVersion > after
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ring[(start + mid) % ring.length].resourceVersion() <= after) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    List<WatchCacheEvent> out = new ArrayList<>(size - lo);
    for (int i = lo; i < size; i++) {
      out.add(ring[(start + i) % ring.length]);
    }
    return out;
  }

  int size() {
    return size;
  }

  /** Forgets everything; events after {@code resourceVersion} will be appended. */
  void reset(long resourceVersion) {
    java.util.Arrays.fill(ring, null);
    start = 0;
    size = 0;
    oldestResumable = resourceVersion;
  }
}

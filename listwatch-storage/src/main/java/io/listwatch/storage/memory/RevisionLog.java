package io.listwatch.storage.memory;

import io.listwatch.storage.WatchEvent;

/**
 * The retained changes, one per revision, with the time each was committed: what watches
 * from a past revision replay, and what automatic compaction dates. A ring buffer indexed by
 * revision: {@link #get} is O(1), appending is amortized O(1), and dropping the oldest
 * entries frees their slots (the buffer shrinks again when it is mostly empty).
 *
 * <p>Invariant: the entries are exactly the revisions {@code first .. first + size - 1}, one
 * each, and their commit times never decrease. Guarded by the lock of the
 * {@link MemoryData} that holds it; not thread-safe by itself. Its size is bounded by the
 * store's history retention, not here.
 */
final class RevisionLog {

  private static final int MIN_CAPACITY = 16;

  private WatchEvent[] events = new WatchEvent[MIN_CAPACITY];
  private long[] millis = new long[MIN_CAPACITY];
  /** The slot of revision {@link #first}. */
  private int head;
  private int size;
  /** The revision of the oldest entry; the next one appended when the log is empty. */
  private long first;

  /** An empty log whose first entry will be {@code firstRevision}. */
  RevisionLog(long firstRevision) {
    this.first = firstRevision;
  }

  /** The revision of the newest entry ({@code first - 1} when empty). */
  long last() {
    return first + size - 1;
  }

  int size() {
    return size;
  }

  /** The change committed at {@code revision}, which must be retained. */
  WatchEvent get(long revision) {
    return events[slot(revision)];
  }

  /**
   * Appends the next revision's change, committed at {@code committedMillis}; an earlier time
   * than the newest entry's (a clock set back) is recorded as the newest entry's.
   */
  void append(WatchEvent event, long committedMillis) {
    if (event.revision() != last() + 1) {
      throw new IllegalStateException("revision " + event.revision() + " appended after " + last());
    }
    if (size == events.length) {
      resize(events.length * 2);
    }
    int slot = (head + size) % events.length;
    events[slot] = event;
    millis[slot] = size == 0 ? committedMillis : Math.max(committedMillis, lastMillis());
    size++;
  }

  /**
   * The newest revision committed at or before {@code cutoffMillis}, or {@code first - 1} if
   * no retained one was.
   */
  long newestCommittedAtOrBefore(long cutoffMillis) {
    int lo = 0;
    int hi = size - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (millis[(head + mid) % events.length] <= cutoffMillis) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return first + found;
  }

  /** Drops every entry up to and including {@code revision}; later appends continue after it. */
  void dropThrough(long revision) {
    if (revision > last()) {
      throw new IllegalStateException("cannot drop through " + revision + ", the log ends at " + last());
    }
    long drop = revision - first + 1;
    for (long i = 0; i < drop; i++) {
      events[head] = null;
      head = (head + 1) % events.length;
    }
    if (drop > 0) {
      size -= (int) drop;
      first = revision + 1;
    }
    if (events.length > MIN_CAPACITY && size < events.length / 4) {
      resize(Math.max(MIN_CAPACITY, events.length / 2));
    }
  }

  private long lastMillis() {
    return millis[(head + size - 1) % events.length];
  }

  private int slot(long revision) {
    long offset = revision - first;
    if (offset < 0 || offset >= size) {
      throw new IllegalStateException("revision " + revision + " is not in the log ["
          + first + ", " + last() + "]");
    }
    return (int) ((head + offset) % events.length);
  }

  private void resize(int capacity) {
    WatchEvent[] newEvents = new WatchEvent[capacity];
    long[] newMillis = new long[capacity];
    for (int i = 0; i < size; i++) {
      int from = (head + i) % events.length;
      newEvents[i] = events[from];
      newMillis[i] = millis[from];
    }
    events = newEvents;
    millis = newMillis;
    head = 0;
  }
}

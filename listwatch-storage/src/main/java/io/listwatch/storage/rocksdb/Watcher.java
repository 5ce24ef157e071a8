package io.listwatch.storage.rocksdb;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One storage watch: a virtual thread that delivers the changes under a prefix to its
 * listener, first from history (the {@code log} column family), then live from memory.
 *
 * <h2>Modes</h2>
 * <ul>
 *   <li>History: reads the log from {@link #position} up to the hub's published revision in
 *       chunks, then asks the hub to go live. Used at start (the watch may begin in the past)
 *       and whenever the live queue overflowed.</li>
 *   <li>Live: the committer appends each group's matching events to {@link #queue}; this
 *       thread takes them. If the listener lags by more than {@link #MAX_QUEUED} events, the
 *       hub drops the watcher from live delivery; once the queue is drained it goes back to
 *       history mode from the last revision the queue covered. Memory stays bounded and the
 *       writers never wait.</li>
 * </ul>
 *
 * <p>Threads: {@link #position} is confined to the delivery thread. The fields marked
 * {@code @GuardedBy("lock")} are shared with the committer (through the hub) and with callers of
 * {@link #close} and {@link #requestProgress}. Listener calls happen under
 * {@link #deliveryLock}, which {@link #close} also takes, so no call starts after close returns.
 */
final class Watcher implements Watch, Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Watcher.class);

  /** The most events waiting in memory for one listener. */
  static final int MAX_QUEUED = 10_000;
  /** Log entries read per history chunk. */
  static final int HISTORY_CHUNK = 1_000;

  private final WatcherHub hub;
  private final MvccDb db;
  private final byte[] prefix;
  private final String prefixString;
  private final WatchListener listener;
  private final LongSupplier compactedRevision;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private final ReentrantLock deliveryLock = new ReentrantLock();
  private final Thread thread;

  @GuardedBy("lock")
  private final ArrayDeque<List<WatchEvent>> queue = new ArrayDeque<>();
  @GuardedBy("lock")
  private int queuedEvents;
  /** Every event up to this revision is in {@link #queue} or delivered. */
  @GuardedBy("lock")
  private long queuedThrough;
  /** Live events at or below this revision were delivered already. Written and read under the hub's lock. */
  private long liveFrom;
  @GuardedBy("lock")
  private boolean overflowed;
  @GuardedBy("lock")
  private boolean progressRequested;
  @GuardedBy("lock")
  private boolean closed;
  @GuardedBy("lock")
  private StorageException failure;
  private long position; // delivery thread only: every event up to it was delivered

  Watcher(WatcherHub hub, MvccDb db, byte[] prefix, String prefixString, long fromRevision,
      WatchListener listener, LongSupplier compactedRevision) {
    this.hub = hub;
    this.db = db;
    this.prefix = prefix;
    this.prefixString = prefixString;
    this.listener = listener;
    this.compactedRevision = compactedRevision;
    this.position = fromRevision;
    this.thread = Thread.ofVirtual().name("listwatch-storage-watch[" + prefixString + "]").unstarted(this);
  }

  void start() {
    thread.start();
  }

  // ---- called by the hub, under its lock ---------------------------------------------

  /** Appends a group's matching events; false when this watcher must leave live delivery. */
  boolean offer(List<WatchEvent> events, long revision) {
    if (revision <= liveFrom) {
      return true; // a watch that starts ahead of the store waits for its revisions
    }
    List<WatchEvent> matching = matching(events);
    lock.lock();
    try {
      if (closed || failure != null) {
        return false;
      }
      if (queuedEvents + matching.size() > MAX_QUEUED) {
        overflowed = true;
        wake.signal();
        return false;
      }
      if (!matching.isEmpty()) {
        queue.add(matching);
        queuedEvents += matching.size();
      }
      queuedThrough = revision;
      wake.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  void startLive(long revision) {
    lock.lock();
    try {
      liveFrom = revision;
      queuedThrough = revision;
    } finally {
      lock.unlock();
    }
  }

  private List<WatchEvent> matching(List<WatchEvent> events) {
    List<WatchEvent> out = null;
    for (int i = 0; i < events.size(); i++) {
      boolean match = events.get(i).revision() > liveFrom
          && events.get(i).kv().key().startsWith(prefixString);
      if (out == null && !match) {
        out = new ArrayList<>(events.subList(0, i));
      } else if (out != null && match) {
        out.add(events.get(i));
      }
    }
    return out == null ? events : List.copyOf(out);
  }

  // ---- the delivery thread ----------------------------------------------------------

  @Override
  public void run() {
    try {
      boolean live = false;
      while (true) {
        if (!live) {
          if (!readHistory()) {
            return;
          }
          live = hub.goLive(this, position);
          continue;
        }
        List<WatchEvent> next;
        long progressAt = -1;
        StorageException failed;
        lock.lock();
        try {
          while (queue.isEmpty() && !overflowed && !progressRequested && !closed && failure == null) {
            wake.await();
          }
          if (closed) {
            return;
          }
          failed = failure;
          next = failed == null ? queue.poll() : null;
          if (failed != null) {
            // delivered below, outside the lock
          } else if (next != null) {
            queuedEvents -= next.size();
          } else {
            position = Math.max(position, queuedThrough);
            if (overflowed) { // the queue is drained: continue from history
              overflowed = false;
              live = false;
              continue;
            }
            progressRequested = false;
            progressAt = position;
          }
        } finally {
          lock.unlock();
        }
        if (failed != null) {
          deliverError(failed);
          return;
        }
        if (next != null) {
          deliver(next);
          position = next.getLast().revision();
        } else if (progressAt >= 0) {
          deliverProgress(progressAt);
        }
      }
    } catch (InterruptedException e) {
      // the store is closing
    } catch (StorageException e) {
      deliverError(e);
    } catch (RuntimeException e) {
      LOG.error("Watcher[{}]: delivery failed", prefixString, e);
      deliverError(StorageException.unavailable("watch failed: " + e, e));
    } finally {
      hub.remove(this);
    }
  }

  /** Delivers history up to the published revision; false when the watch is over. */
  private boolean readHistory() {
    long target = hub.publishedRevision();
    while (position < target) {
      if (isOver()) {
        return false;
      }
      long compacted = compactedRevision.getAsLong();
      if (position < compacted) {
        deliverError(StorageException.compacted(position, compacted));
        return false;
      }
      long start = position;
      long[] through = new long[1];
      List<WatchEvent> events = db.readLog(prefix, start, target, HISTORY_CHUNK, through);
      compacted = compactedRevision.getAsLong();
      if (start < compacted) { // compaction may have raced the read
        deliverError(StorageException.compacted(start, compacted));
        return false;
      }
      if (!events.isEmpty()) {
        deliver(List.copyOf(events));
      }
      position = through[0];
    }
    return !isOver();
  }

  private boolean isOver() {
    StorageException f;
    lock.lock();
    try {
      if (closed) {
        return true;
      }
      f = failure;
    } finally {
      lock.unlock();
    }
    if (f != null) {
      deliverError(f);
      return true;
    }
    return false;
  }

  private void deliver(List<WatchEvent> events) {
    deliveryLock.lock();
    try {
      if (!isClosedNow()) {
        listener.onEvents(events);
      }
    } finally {
      deliveryLock.unlock();
    }
  }

  private void deliverProgress(long revision) {
    deliveryLock.lock();
    try {
      if (!isClosedNow()) {
        listener.onProgress(revision);
      }
    } finally {
      deliveryLock.unlock();
    }
  }

  private void deliverError(StorageException error) {
    deliveryLock.lock();
    try {
      lock.lock();
      boolean alreadyClosedByUser;
      try {
        alreadyClosedByUser = closed && failure == null;
        closed = true;
      } finally {
        lock.unlock();
      }
      if (!alreadyClosedByUser) {
        listener.onError(error);
      }
    } catch (RuntimeException e) {
      LOG.warn("Watcher[{}]: listener failed in onError", prefixString, e);
    } finally {
      deliveryLock.unlock();
    }
  }

  private boolean isClosedNow() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  // ---- Watch ------------------------------------------------------------------------

  @Override
  public void requestProgress() {
    lock.lock();
    try {
      progressRequested = true;
      wake.signal();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      wake.signal();
    } finally {
      lock.unlock();
    }
    hub.remove(this);
    // wait for a listener call in progress (unless close is called from inside one)
    deliveryLock.lock();
    deliveryLock.unlock();
  }

  /** Ends the watch with {@code error}, delivered by the watch's own thread. */
  void fail(StorageException error) {
    lock.lock();
    try {
      if (failure == null) {
        failure = error;
      }
      wake.signal();
    } finally {
      lock.unlock();
    }
  }

  void awaitEnd(Duration timeout) {
    try {
      thread.join(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
